import { GitRepo } from '../git/gitRepo';
import {
  EnvironmentRecord,
  parseEnvironment,
} from '../platform/environmentFile';
import {
  ENVIRONMENTS_DIR,
  parseRecordPath,
  RELEASES_DIR,
  StageKey,
  stageName,
} from '../platform/layout';
import { parseRelease, ReleaseRecord } from '../platform/releaseFile';

export interface ReleaseEntry {
  key: StageKey;
  path: string;
  /** Parsed record, or the reason it could not be parsed (Argo CD shows a ComparisonError). */
  record?: ReleaseRecord;
  error?: string;
}

/** What `main` says at one commit: the Release records (one Application each) and Environments. */
export interface PlatformSnapshot {
  revision: string;
  /** keyed by Application name `<team>-<product>-<stage>` */
  releases: Map<string, ReleaseEntry>;
  environments: Map<string, EnvironmentRecord>;
}

/**
 * Reads releases and environments from a commit. Parsed files are cached by
 * blob sha, so re-reading after an unrelated commit costs one ls-tree.
 */
export class SnapshotReader {
  private readonly parsed = new Map<
    string,
    { record?: unknown; error?: string }
  >();

  constructor(private readonly repo: GitRepo) {}

  async read(revision: string): Promise<PlatformSnapshot> {
    const entries = await this.repo.listTree(revision, {
      recursive: true,
      dir: 'gitops',
    });
    // Read together (the git runner bounds how many at once), then kept in the tree's order.
    const files = await Promise.all(
      entries
        .filter(entry => entry.type === 'blob')
        .map(async entry => {
          const releaseKey = parseRecordPath(RELEASES_DIR, entry.path);
          if (releaseKey) return { entry, releaseKey, parsed: await this.parse(entry.sha, parseRelease) };
          const environmentKey = parseRecordPath(ENVIRONMENTS_DIR, entry.path);
          if (environmentKey) {
            return { entry, environmentKey, parsed: await this.parse(entry.sha, parseEnvironment) };
          }
          return undefined;
        }),
    );
    const releases = new Map<string, ReleaseEntry>();
    const environments = new Map<string, EnvironmentRecord>();
    for (const file of files) {
      if (file?.releaseKey) {
        releases.set(stageName(file.releaseKey), {
          key: file.releaseKey,
          path: file.entry.path,
          record: file.parsed.record as ReleaseRecord | undefined,
          error: file.parsed.error,
        });
      } else if (file?.environmentKey && file.parsed.record) {
        environments.set(stageName(file.environmentKey), file.parsed.record as EnvironmentRecord);
      }
    }
    return { revision, releases, environments };
  }

  private async parse(
    sha: string,
    parser: (text: string) => unknown,
  ): Promise<{ record?: unknown; error?: string }> {
    const cached = this.parsed.get(sha);
    if (cached) return cached;
    const text = (await this.repo.readBlob(sha)).toString('utf8');
    let result: { record?: unknown; error?: string };
    try {
      result = { record: parser(text) };
    } catch (error) {
      result = {
        error: error instanceof Error ? error.message : String(error),
      };
    }
    this.parsed.set(sha, result);
    return result;
  }
}
