import { GitRepo } from './gitRepo';
import { Mutex } from './mutex';
import { GitIdentity, TreeEdit } from './types';

export interface FileWrite {
  path: string;
  /** New bytes, or null to delete the file. */
  content: Buffer | string | null;
}

export interface CommitFilesRequest {
  branch: string;
  files: FileWrite[];
  message: string;
  author: GitIdentity;
  committer?: GitIdentity;
  /** Refuse (return 'stale') unless the branch head is still this commit. */
  expectedHead?: string;
  /** Create the branch as a root commit when it does not exist (only the seed does this). */
  allowNewBranch?: boolean;
}

export type CommitFilesResult =
  | {
      kind: 'committed';
      commit: string;
      tree: string;
      parent: string | null;
      blobs: Record<string, string>;
    }
  | { kind: 'no-branch' }
  | { kind: 'stale'; head: string };

/**
 * Commits file changes onto a branch with plumbing only:
 * hash-object → index edit → write-tree → commit-tree → update-ref (CAS on the old head).
 * Every call runs under the repository's write mutex.
 */
export class FileCommitter {
  constructor(
    private readonly repo: GitRepo,
    private readonly writeLock: Mutex,
  ) {}

  commitFiles(request: CommitFilesRequest): Promise<CommitFilesResult> {
    return this.writeLock.run(() => this.commitFilesLocked(request));
  }

  /** For callers that already hold the write lock (e.g. a contents PUT that checked a blob sha first). */
  async commitFilesLocked(
    request: CommitFilesRequest,
  ): Promise<CommitFilesResult> {
    const ref = `refs/heads/${request.branch}`;
    const head = await this.repo.readRef(ref);
    if (!head && !request.allowNewBranch) return { kind: 'no-branch' };
    if (request.expectedHead && head !== request.expectedHead) {
      return { kind: 'stale', head: head ?? '' };
    }
    const blobs: Record<string, string> = {};
    const edits: TreeEdit[] = [];
    for (const file of request.files) {
      if (file.content === null) {
        edits.push({ path: file.path, sha: null });
      } else {
        const sha = await this.repo.writeBlob(file.content);
        blobs[file.path] = sha;
        edits.push({ path: file.path, sha, mode: '100644' });
      }
    }
    const baseTree = head ? await this.repo.resolveTree(head) : null;
    const tree = await this.repo.writeTree(baseTree, edits);
    const commit = await this.repo.writeCommit({
      tree,
      parents: head ? [head] : [],
      message: request.message,
      author: request.author,
      committer: request.committer,
    });
    const swapped = await this.repo.updateRef(ref, commit, head);
    if (!swapped) {
      const current = await this.repo.readRef(ref);
      return { kind: 'stale', head: current ?? '' };
    }
    return { kind: 'committed', commit, tree, parent: head, blobs };
  }
}
