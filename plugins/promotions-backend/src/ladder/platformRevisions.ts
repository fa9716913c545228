import { LoggerService } from '@backstage/backend-plugin-api';
import {
  Application,
  GitRepoRef,
  platformRepoRevisions,
} from '@refplat/plugin-promotions-common';
import { PlatformRepoReader, RepoFileIndex } from '../github/PlatformRepoReader';

/** A git object id (sha1 or sha256); anything else is not worth asking GitHub about. */
const COMMIT_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;

export interface PlatformRevisionQuery {
  repo: PlatformRepoReader;
  platformRepo: GitRepoRef;
  application: Application;
  /** The stage's Release file. */
  releasePath: string;
  headRevision: string;
  headIndex: RepoFileIndex;
  logger: LoggerService;
}

/**
 * For each platform-repo revision ArgoCD compared (app-repo revisions are never looked up): does
 * it carry the current Release file? ArgoCD may lag behind unrelated commits, so the Release
 * file's blob is compared with the head's. Trees are cached by sha and failed lookups by
 * revision, so each revision costs GitHub at most one request.
 */
export async function platformRevisionsCarryingRelease(
  query: PlatformRevisionQuery,
): Promise<Record<string, boolean | undefined>> {
  const { repo, releasePath, headRevision, headIndex } = query;
  const revisions = platformRepoRevisions(query.application, query.platformRepo);
  const entries = await Promise.all(
    revisions.map(async (revision): Promise<[string, boolean | undefined]> => {
      if (revision === headRevision) return [revision, true];
      if (!COMMIT_SHA.test(revision)) return [revision, undefined];
      try {
        const index = await repo.fileIndex(revision, { rememberFailure: true });
        return [revision, index[releasePath] === headIndex[releasePath]];
      } catch (error) {
        query.logger.debug(`Cannot read ${revision} to compare ${releasePath}: ${error}`);
        return [revision, undefined];
      }
    }),
  );
  return Object.fromEntries(entries);
}
