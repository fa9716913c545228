import { LoggerService } from '@backstage/backend-plugin-api';
import {
  Application,
  GitRepoRef,
  platformRepoRevisions,
} from '@refplat/plugin-promotions-common';
import type { PlatformRepoFiles, RepoFileIndex } from '@refplat/plugin-promotions-node';
import { parseRelease } from '../releases/records';

/** A git object id (sha1 or sha256); anything else is not worth asking GitHub about. */
const COMMIT_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;

export interface PlatformRevisionQuery {
  repo: PlatformRepoFiles;
  platformRepo: GitRepoRef;
  application: Application;
  /** The stage's Release file. */
  releasePath: string;
  /** The stage's services with the digest the Release at the head names (undefined: none). */
  releasedDigests: Readonly<Record<string, string | undefined>>;
  headRevision: string;
  headIndex: RepoFileIndex;
  logger: LoggerService;
}

/** Per service, per platform revision: does the revision carry the service's released digest? */
export type RevisionsCarryingRelease = Record<string, Record<string, boolean | undefined>>;

/** The Release file at a revision: the same blob as the head's, its digests, or unreadable. */
type ReleaseAtRevision =
  | { same: true }
  | { same: false; digests: Record<string, string> }
  | undefined;

/**
 * For each platform-repo revision ArgoCD compared (app-repo revisions are never looked up) and
 * each service: does the revision's Release name the service's current digest? ArgoCD may lag
 * behind commits that changed only other services, and those do not concern this one. Trees and
 * blobs are cached by sha and failed lookups by revision, so each revision costs GitHub at most
 * one tree and one blob request.
 */
export async function platformRevisionsCarryingRelease(
  query: PlatformRevisionQuery,
): Promise<RevisionsCarryingRelease> {
  const revisions = platformRepoRevisions(query.application, query.platformRepo);
  const releases = await Promise.all(
    revisions.map(async revision => [revision, await releaseAt(query, revision)] as const),
  );
  const carrying: RevisionsCarryingRelease = {};
  for (const [service, digest] of Object.entries(query.releasedDigests)) {
    carrying[service] = Object.fromEntries(
      releases.map(([revision, release]) => [
        revision,
        release && (release.same || release.digests[service] === digest),
      ]),
    );
  }
  return carrying;
}

async function releaseAt(
  query: PlatformRevisionQuery,
  revision: string,
): Promise<ReleaseAtRevision> {
  const { repo, releasePath, headRevision, headIndex } = query;
  if (revision === headRevision) return { same: true };
  if (!COMMIT_SHA.test(revision)) return undefined;
  try {
    const index = await repo.fileIndex(revision, { rememberFailure: true });
    const blob = index[releasePath];
    if (blob === headIndex[releasePath]) return { same: true };
    if (!blob) return { same: false, digests: {} };
    return { same: false, digests: parseRelease(await repo.readBlob(blob)).services };
  } catch (error) {
    query.logger.debug(`Cannot read ${releasePath} at ${revision}: ${error}`);
    return undefined;
  }
}
