/** Who wrote or committed a commit; `date` is ISO 8601. */
export interface GitIdentity {
  name: string;
  email: string;
  date: string;
}

export interface CommitInfo {
  sha: string;
  tree: string;
  parents: string[];
  author: GitIdentity;
  committer: GitIdentity;
  /** Full message, subject and body, without the trailing newline. */
  message: string;
}

export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag';

export interface TreeEntry {
  mode: string;
  type: ObjectType;
  sha: string;
  /** Path relative to the listed tree (full path when listing recursively). */
  path: string;
  /** Blob size in bytes; absent for trees. */
  size?: number;
}

/** One change to a tree: a new blob at a path, or `sha: null` to remove it. */
export interface TreeEdit {
  path: string;
  mode?: string;
  sha: string | null;
}

export type FileChangeStatus = 'added' | 'removed' | 'modified';

export interface FileChange {
  filename: string;
  status: FileChangeStatus;
  /** Blob sha after the change (before it, for removals). */
  sha: string;
  additions: number;
  deletions: number;
  /** Unified diff hunks, as GitHub's `patch` field (absent for binary files). */
  patch?: string;
}

export const ZERO_SHA = '0000000000000000000000000000000000000000';
/** Git's well-known empty tree; usable as a diff base without existing on disk. */
export const EMPTY_TREE_SHA = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
