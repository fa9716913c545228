import type { RepoFileIndex } from '@refplat/plugin-promotions-node';

/** GitHub lists at most this many files in a comparison or a commit's page; a list this long may be cut. */
const MAX_LISTED_FILES = 300;

/** A changed file as GitHub lists it in a comparison or a commit (its `diff-entry`). */
export interface ChangedFile {
  filename: string;
  status: string;
  /** The file's blob sha after the change. */
  sha?: string | null;
  previous_filename?: string;
}

/** Whether GitHub may have left files out of a commit's or a comparison's list (`link`: the answer's Link header). */
export function mayBeCut(files: readonly ChangedFile[] | undefined, link?: string): boolean {
  return !Array.isArray(files) || files.length >= MAX_LISTED_FILES || Boolean(link?.includes('rel="next"'));
}

/** Path → its blob sha after a change, or null: removed (or no longer watched). */
export type IndexChanges = Record<string, string | null>;

/**
 * What GitHub's list of changed files does to an index, for the files under
 * the watched prefixes; undefined when the list cannot say it exactly (a
 * list that may be cut, a rename without its old name, a changed file
 * without its blob sha): the caller then reads the whole tree.
 */
export function indexChanges(
  files: readonly ChangedFile[] | undefined,
  isWatched: (path: string) => boolean,
): IndexChanges | undefined {
  if (!files || mayBeCut(files)) return undefined;
  const changes: IndexChanges = {};
  for (const file of files) {
    if (file.status === 'renamed' && !file.previous_filename) return undefined;
    if (file.previous_filename) changes[file.previous_filename] = null;
    if (file.status === 'removed' || !isWatched(file.filename)) {
      changes[file.filename] = null;
      continue;
    }
    if (typeof file.sha !== 'string') return undefined;
    changes[file.filename] = file.sha;
  }
  return changes;
}

/** `base` with `changes` applied: a new index, `base` unchanged. */
export function withChanges(base: RepoFileIndex, changes: IndexChanges): RepoFileIndex {
  const index: RepoFileIndex = { ...base };
  for (const [path, blobSha] of Object.entries(changes)) {
    if (blobSha === null) delete index[path];
    else index[path] = blobSha;
  }
  return index;
}
