/**
 * A pull request against the platform repo's base branch, as the promotions read it.
 *
 * @public
 */
export interface PullRequestInfo {
  number: number;
  url: string;
  state: 'open' | 'closed';
  merged: boolean;
  mergedBy?: string;
  headSha: string;
  headRef: string;
  body: string;
  mergeable?: boolean | null;
}

/**
 * How a merge went: merged with the merge commit's sha, or refused because
 * the PR cannot be merged, or because its head is no longer the sha given.
 *
 * @public
 */
export type MergeOutcome =
  | {
      merged: true;
      sha: string;
      /** The host deleted the PR's branch itself (GitHub's "Automatically delete head branches"). */
      headBranchDeleted?: boolean;
    }
  | { merged: false; reason: 'not-mergeable' | 'head-moved'; message: string }
  | {
      merged: false;
      /** The base branch's protection or a ruleset requires a status the head lacks, or has not passed. */
      reason: 'checks-required';
      /** The status's context, as GitHub names it ("Required status check "…" is expected."). */
      context?: string;
      message: string;
    };

/**
 * A commit status as the promotions publish them on a PR head.
 *
 * @public
 */
export interface CommitStatusInput {
  sha: string;
  context: string;
  state: 'pending' | 'success' | 'failure' | 'error';
  /** Cut to 140 characters, GitHub's limit. */
  description: string;
  targetUrl?: string;
}

/**
 * A commit of the base branch's history of one file.
 *
 * @public
 */
export interface PlatformRepoCommit {
  sha: string;
  /** Login of the author, else their name, else `unknown`. */
  author: string;
  /** ISO time it was authored, else committed. */
  date: string;
  message: string;
}

/**
 * One commit of several files (PlatformRepo.commitFiles).
 *
 * @public
 */
export interface CommitFilesInput {
  branch: string;
  /** The commit it goes on top of: the base branch's head for a new branch, else the branch's head. */
  parent: string;
  files: Array<{ path: string; text: string }>;
  message: string;
  /** Create `branch` at the commit, or move it there (a fast-forward from `parent`). */
  createBranch: boolean;
}

/**
 * The platform repo as the promotions change it: branches, one-file
 * commits, Release PRs, their merges, commit statuses and comments, and the
 * reads those need (a file at a ref, a head's diff against the base branch,
 * a file's history). Every write goes through a PR; nothing writes to the
 * base branch directly. A failure of the host is thrown as a
 * `ServiceUnavailableError` that names the operation and the HTTP status
 * (`… (HTTP 409): …`), except where a method says otherwise.
 *
 * @public
 */
export interface PlatformRepo {
  /** Creates `branch` at `sha`. */
  createBranch(branch: string, sha: string): Promise<void>;
  /** Deletes `branch`; one that is already gone is no failure. */
  deleteBranch(branch: string): Promise<void>;
  /** Branches whose name starts with `prefix`, with the commit each points at. */
  listBranches(prefix: string): Promise<Array<{ name: string; sha: string }>>;
  /** Text and blob sha of a file at a ref (branch or sha); a missing file fails as HTTP 404. */
  readFile(path: string, ref: string): Promise<{ text: string; blobSha: string }>;
  /** Like readFile; undefined when the ref has no such file. */
  readFileIfPresent(path: string, ref: string): Promise<{ text: string; blobSha: string } | undefined>;
  /**
   * The files `headSha` changes relative to the base branch (from their merge
   * base, as the PR's diff), each with its blob sha at `headSha` where the
   * host says it (none for a removed file).
   */
  changedFiles(headSha: string): Promise<Array<{ filename: string; blobSha?: string }>>;
  /** When a commit was committed (ISO time). */
  commitDate(sha: string): Promise<string>;
  /**
   * Commits `text` to `path` on `branch`, on top of blob `blobSha`, and answers the commit's sha.
   * Fails as HTTP 409 when the file moved on since.
   */
  commitFile(options: { branch: string; path: string; text: string; blobSha: string; message: string }): Promise<string>;
  /**
   * One commit of several files on top of commit `parent` (the git data API: a tree and a
   * commit), then `branch` created at it (`createBranch`) or moved to it, which must be a
   * fast-forward from `parent`. Answers the commit's sha. A fleet PR's writes: one commit
   * for every Product's Release file, however many.
   */
  commitFiles(options: CommitFilesInput): Promise<string>;
  /** Opens a PR from `branch` against the base branch. */
  openPullRequest(options: { branch: string; title: string; body: string }): Promise<PullRequestInfo>;
  addLabels(number: number, labels: string[]): Promise<void>;
  getPullRequest(number: number): Promise<PullRequestInfo>;
  /** Every open PR against the base branch. */
  listOpenPullRequests(): Promise<PullRequestInfo[]>;
  /** Open PRs against the base branch whose body contains `marker`. */
  findOpenPullRequests(marker: string): Promise<PullRequestInfo[]>;
  /**
   * Squash-merges the PR if its head is still `headSha`, as one commit
   * titled `title`, with `message` as its body when given.
   */
  mergePullRequest(number: number, headSha: string, title: string, message?: string): Promise<MergeOutcome>;
  /** Comments on the PR, then closes it. */
  closePullRequest(number: number, comment: string): Promise<void>;
  comment(number: number, body: string): Promise<void>;
  setStatus(status: CommitStatusInput): Promise<void>;
  /**
   * The status contexts the base branch requires before a merge (its branch protection's and
   * its rulesets' required status checks); undefined when they could not be read.
   */
  requiredStatusChecks(): Promise<string[] | undefined>;
  /**
   * Commits that touched `path` on the base branch (or in the history of
   * commit `at`), newest first, at most `perPage`.
   */
  listCommits(path: string, perPage: number, at?: string): Promise<PlatformRepoCommit[]>;
}

/**
 * Path → blob sha, for the files under the watched prefixes.
 *
 * @public
 */
export type RepoFileIndex = Record<string, string>;

/**
 * The platform repo as the ladder reads it: the base branch's head commit,
 * the files of a commit by blob sha, and the blobs' text. Commits and blobs
 * never change, so implementations cache them freely.
 *
 * @public
 */
export interface PlatformRepoFiles {
  /**
   * The commit sha at the head of the base branch. An implementation may
   * answer from a recent check; `fresh` asks the host now (before a merge).
   */
  headCommit(options?: { fresh?: boolean }): Promise<string>;
  /**
   * Path → blob sha for the watched prefixes at a commit. `rememberFailure`
   * (for revisions a health source reports, which may not be in the repo)
   * lets an implementation remember that a revision is unknown.
   */
  fileIndex(commitSha: string, options?: { rememberFailure?: boolean }): Promise<RepoFileIndex>;
  /** A file's text by its blob sha. */
  readBlob(blobSha: string): Promise<string>;
  /**
   * A file parsed by `parse`, by its blob sha; `kind` names the parser (the
   * same blob may be read as two kinds). Callers share the parsed value and
   * must not change it.
   */
  readParsedBlob<T>(blobSha: string, kind: string, parse: (text: string) => T): Promise<T>;
  /** Readies blobs of a commit for `readBlob` (a hint: an implementation may do nothing). */
  prefetchBlobs(commitSha: string, blobShas: string[]): Promise<void>;
}
