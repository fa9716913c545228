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

/**
 * `base` with GitHub's list of changed files applied, for the files under
 * the watched prefixes; undefined when the list cannot say the result
 * exactly (a list that may be cut, a rename without its old name, a changed
 * file without its blob sha): the caller then reads the whole tree.
 */
export function applyChangedFiles(
  base: RepoFileIndex,
  files: readonly ChangedFile[] | undefined,
  isWatched: (path: string) => boolean,
): RepoFileIndex | undefined {
  if (!files || mayBeCut(files)) return undefined;
  const index: RepoFileIndex = { ...base };
  for (const file of files) {
    if (file.status === 'renamed' && !file.previous_filename) return undefined;
    if (file.previous_filename) delete index[file.previous_filename];
    if (file.status === 'removed' || !isWatched(file.filename)) {
      delete index[file.filename];
      continue;
    }
    if (typeof file.sha !== 'string') return undefined;
    index[file.filename] = file.sha;
  }
  return index;
}
