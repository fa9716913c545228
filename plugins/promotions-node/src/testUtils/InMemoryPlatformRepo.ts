import { createHash } from 'crypto';
import { ServiceUnavailableError } from '@backstage/errors';
import {
  Clock,
  systemClock,
  CommitFilesInput,
  CommitStatusInput,
  MergeOutcome,
  PlatformRepo,
  PlatformRepoCommit,
  PlatformRepoFiles,
  PlatformRepoRateLimitedError,
  PlatformRepoUnansweredError,
  PullRequestInfo,
  RepoFileIndex,
} from '@refplat/plugin-promotions-node';

interface Commit {
  sha: string;
  parent?: string;
  /** Path → blob sha: the whole tree. */
  files: Map<string, string>;
  message: string;
  author: string;
  date: string;
}

interface PullRequest {
  number: number;
  branch: string;
  title: string;
  body: string;
  state: 'open' | 'closed';
  merged: boolean;
  mergedBy?: string;
  /** The head while open follows the branch; closed, it stays where it was. */
  closedHead?: string;
  labels: string[];
  comments: string[];
}

/**
 * The methods of both ports, which faults can be injected into.
 *
 * @public
 */
export type PlatformRepoMethod = keyof PlatformRepo | keyof PlatformRepoFiles;

/**
 * A fault the next call of a method meets, as the host would answer it.
 *
 * @public
 */
export interface PlatformRepoFault {
  /** The HTTP status the host answers. */
  status: number;
  /** The host did the write, and then the answer was lost (a timeout): the caller sees the failure. */
  applied?: boolean;
  message?: string;
  /** A rate limit's refusal (403 or 429), with the wait the host asks for. */
  retryAfterSeconds?: number;
  /**
   * No answer came in time (the adapter's PlatformRepoUnansweredError, its
   * `status` unused); with `applied`, the host made the write all the same.
   */
  unanswered?: boolean;
}

/**
 * A git blob sha, as GitHub computes it.
 *
 * @public
 */
export function gitBlobShaOf(text: string): string {
  const content = Buffer.from(text, 'utf8');
  return createHash('sha1')
    .update(Buffer.concat([Buffer.from(`blob ${content.length}\0`), content]))
    .digest('hex');
}

/**
 * An in-memory platform repo, both ports at once: what a PlatformRepo writes
 * (branches, commits, PRs, merges) the PlatformRepoFiles reads. It keeps
 * commits with whole trees, PRs whose head follows their branch, squash
 * merges (refused with `not-mergeable` when the base branch changed a file
 * the PR changes, `head-moved` when the head is not the sha given), commit
 * statuses, comments and labels. A test writes the repo's starting state
 * with `commit`, acts for people with `mergeByHand`, `closeByHand` and
 * `commit` onto a PR's branch, injects faults with `failNext`, and reads
 * what happened with `pullRequests`, `statusesOf`, `commentsOn`, `labelsOf`,
 * `branchHead`, `fileAt` and `calls`.
 *
 * @public
 */
export class InMemoryPlatformRepo implements PlatformRepo, PlatformRepoFiles {
  private readonly commits = new Map<string, Commit>();
  private readonly blobs = new Map<string, string>();
  private readonly branches = new Map<string, string>();
  private readonly pulls = new Map<number, PullRequest>();
  private readonly statuses: CommitStatusInput[] = [];
  private readonly faults = new Map<PlatformRepoMethod, PlatformRepoFault[]>();
  private readonly parsed = new Map<string, unknown>();
  private nextNumber = 1;
  private commitCount = 0;
  /** Every port method called, in order: to assert what a class did (and did not do) on the host. */
  readonly calls: PlatformRepoMethod[] = [];
  readonly baseBranch: string;
  private readonly clock: Clock;
  /** Who merges through the port (the token's user). */
  private readonly mergeActor: string;
  /** The repository deletes a PR's branch when the port merges it (GitHub's "Automatically delete head branches"). */
  private readonly deleteBranchOnMerge: boolean;
  /** The base branch's required status checks (`requireStatusChecks`). */
  private requiredChecks: string[] = [];

  constructor(options: { baseBranch?: string; clock?: Clock; mergeActor?: string; deleteBranchOnMerge?: boolean } = {}) {
    this.baseBranch = options.baseBranch ?? 'main';
    this.clock = options.clock ?? systemClock;
    this.mergeActor = options.mergeActor ?? 'promotions-bot';
    this.deleteBranchOnMerge = options.deleteBranchOnMerge ?? false;
    const root = this.newCommit(undefined, new Map(), 'Initial commit', 'platform-team');
    this.branches.set(this.baseBranch, root);
  }

  // ---- what a test does ----

  /**
   * Commits files onto a branch (the base branch by default) as a person
   * would push them, without the ports' checks: `null` deletes a file.
   * Creates the branch from the base branch's head when it does not exist.
   * Answers the commit's sha.
   */
  commit(
    files: Record<string, string | null>,
    options: { branch?: string; message?: string; author?: string } = {},
  ): string {
    const branch = options.branch ?? this.baseBranch;
    const parent = this.branches.get(branch) ?? this.branches.get(this.baseBranch)!;
    const tree = new Map(this.commitOf(parent).files);
    for (const [path, text] of Object.entries(files)) {
      if (text === null) tree.delete(path);
      else tree.set(path, this.storeBlob(text));
    }
    const sha = this.newCommit(parent, tree, options.message ?? `Update ${Object.keys(files).join(', ')}`, options.author ?? 'someone');
    this.branches.set(branch, sha);
    return sha;
  }

  /** Merges a PR as a person would on GitHub, whatever its statuses say. */
  mergeByHand(number: number, by = 'someone'): string {
    const outcome = this.squash(this.pullOf(number), by);
    if (!outcome.merged) throw new Error(`#${number} cannot be merged: ${outcome.message}`);
    return outcome.sha;
  }

  /** Closes a PR as a person would on GitHub. */
  closeByHand(number: number): void {
    const pr = this.pullOf(number);
    pr.closedHead = this.branches.get(pr.branch);
    pr.state = 'closed';
  }

  /** The next call of `method` meets `fault` (faults queue up, one per call). */
  failNext(method: PlatformRepoMethod, fault: PlatformRepoFault): void {
    this.faults.set(method, [...(this.faults.get(method) ?? []), fault]);
  }

  /** Every PR, open or not, by number. */
  pullRequests(): PullRequestInfo[] {
    return [...this.pulls.values()].map(pr => this.infoOf(pr));
  }

  /** Protects the base branch as GitHub does: a merge needs each context's latest status on the head to be success. */
  requireStatusChecks(contexts: string[]): void {
    this.requiredChecks = [...contexts];
  }

  /** The statuses published on a commit, oldest first. */
  statusesOf(sha: string): CommitStatusInput[] {
    return this.statuses.filter(status => status.sha === sha);
  }

  /** The latest status of each context on a commit. */
  latestStatusesOf(sha: string): Record<string, CommitStatusInput> {
    return Object.fromEntries(this.statusesOf(sha).map(status => [status.context, status]));
  }

  commentsOn(number: number): string[] {
    return [...this.pullOf(number).comments];
  }

  labelsOf(number: number): string[] {
    return [...this.pullOf(number).labels];
  }

  /** The commit a branch points at; undefined when there is no such branch. */
  branchHead(branch: string = this.baseBranch): string | undefined {
    return this.branches.get(branch);
  }

  /** A file's text at a branch or commit; undefined when it has none. */
  fileAt(ref: string, path: string): string | undefined {
    const blob = this.commitOf(this.resolve(ref) ?? ref, false)?.files.get(path);
    return blob === undefined ? undefined : this.blobs.get(blob);
  }

  // ---- PlatformRepoFiles ----

  async headCommit(): Promise<string> {
    this.enter('headCommit', `reading branch ${this.baseBranch}`);
    return this.branches.get(this.baseBranch)!;
  }

  async fileIndex(commitSha: string): Promise<RepoFileIndex> {
    this.enter('fileIndex', `reading the tree of ${commitSha}`);
    const commit = this.commitOf(commitSha, false);
    if (!commit) throw this.failure(`reading the tree of ${commitSha}`, 404, 'Not Found');
    return Object.fromEntries(commit.files);
  }

  async readBlob(blobSha: string): Promise<string> {
    this.enter('readBlob', `reading blob ${blobSha}`);
    const text = this.blobs.get(blobSha);
    if (text === undefined) throw this.failure(`reading blob ${blobSha}`, 404, 'Not Found');
    return text;
  }

  async readParsedBlob<T>(blobSha: string, kind: string, parse: (text: string) => T): Promise<T> {
    const key = `${kind}:${blobSha}`;
    if (!this.parsed.has(key)) this.parsed.set(key, parse(await this.readBlob(blobSha)));
    return this.parsed.get(key) as T;
  }

  async prefetchBlobs(): Promise<void> {
    this.enter('prefetchBlobs', 'prefetching blobs');
  }

  // ---- PlatformRepo ----

  async createBranch(branch: string, sha: string): Promise<void> {
    const operation = `creating branch ${branch}`;
    const fault = this.enter('createBranch', operation);
    if (this.branches.has(branch)) throw this.failure(operation, 422, 'Reference already exists');
    if (!this.commits.has(sha)) throw this.failure(operation, 422, 'Object does not exist');
    this.branches.set(branch, sha);
    this.afterApplied(fault, operation);
  }

  async deleteBranch(branch: string): Promise<void> {
    const fault = this.faultFor('deleteBranch');
    this.calls.push('deleteBranch');
    // As the adapter: a branch already gone (404, 422) is no failure.
    if (fault && fault.status !== 404 && fault.status !== 422 && !fault.applied) {
      throw this.faultFailure(`deleting branch ${branch}`, fault);
    }
    this.branches.delete(branch);
    if (fault?.applied) throw this.faultFailure(`deleting branch ${branch}`, fault);
  }

  async listBranches(prefix: string): Promise<Array<{ name: string; sha: string }>> {
    this.enter('listBranches', `listing branches ${prefix}*`);
    return [...this.branches]
      .filter(([name]) => name.startsWith(prefix))
      .map(([name, sha]) => ({ name, sha }));
  }

  async readFile(path: string, ref: string): Promise<{ text: string; blobSha: string }> {
    const file = await this.readFileIfPresent(path, ref);
    if (!file) throw this.failure(`reading ${path}@${ref}`, 404, 'Not Found');
    return file;
  }

  async readFileIfPresent(path: string, ref: string): Promise<{ text: string; blobSha: string } | undefined> {
    const operation = `reading ${path}@${ref}`;
    const fault = this.faultFor('readFileIfPresent');
    this.calls.push('readFileIfPresent');
    if (fault?.status === 404) return undefined;
    if (fault) throw this.faultFailure(operation, fault);
    const commit = this.commitOf(this.resolve(ref) ?? ref, false);
    const blobSha = commit?.files.get(path);
    return blobSha === undefined ? undefined : { text: this.blobs.get(blobSha)!, blobSha };
  }

  async changedFiles(headSha: string): Promise<Array<{ filename: string; blobSha?: string }>> {
    this.enter('changedFiles', `comparing ${this.baseBranch} with ${headSha}`);
    if (!this.commits.has(headSha)) throw this.failure(`comparing ${this.baseBranch} with ${headSha}`, 404, 'Not Found');
    const head = this.commitOf(headSha);
    return this.diff(this.mergeBase(headSha), headSha).map(filename => {
      const blobSha = head.files.get(filename);
      return blobSha === undefined ? { filename } : { filename, blobSha };
    });
  }

  async commitDate(sha: string): Promise<string> {
    this.enter('commitDate', `reading commit ${sha}`);
    const commit = this.commitOf(sha, false);
    if (!commit) throw this.failure(`reading commit ${sha}`, 404, 'Not Found');
    return commit.date;
  }

  async commitFile(options: { branch: string; path: string; text: string; blobSha: string; message: string }): Promise<string> {
    const operation = `committing ${options.path} on ${options.branch}`;
    const fault = this.enter('commitFile', operation);
    const head = this.branches.get(options.branch);
    if (!head) throw this.failure(operation, 404, 'Branch not found');
    if (this.commitOf(head).files.get(options.path) !== options.blobSha) {
      throw this.failure(operation, 409, `${options.path} does not match ${options.blobSha}`);
    }
    const tree = new Map(this.commitOf(head).files);
    tree.set(options.path, this.storeBlob(options.text));
    const sha = this.newCommit(head, tree, options.message, this.mergeActor);
    this.branches.set(options.branch, sha);
    this.afterApplied(fault, operation);
    return sha;
  }

  async commitFiles(options: CommitFilesInput): Promise<string> {
    const operation = `committing ${options.files.length} files on ${options.branch}`;
    const fault = this.enter('commitFiles', operation);
    if (!this.commits.has(options.parent)) throw this.failure(operation, 422, 'Object does not exist');
    const head = this.branches.get(options.branch);
    if (options.createBranch && head) throw this.failure(operation, 422, 'Reference already exists');
    if (!options.createBranch && head !== options.parent) throw this.failure(operation, 422, 'Update is not a fast forward');
    const tree = new Map(this.commitOf(options.parent).files);
    for (const file of options.files) tree.set(file.path, this.storeBlob(file.text));
    const sha = this.newCommit(options.parent, tree, options.message, this.mergeActor);
    this.branches.set(options.branch, sha);
    this.afterApplied(fault, operation);
    return sha;
  }

  async openPullRequest(options: { branch: string; title: string; body: string }): Promise<PullRequestInfo> {
    const operation = `opening a pull request from ${options.branch}`;
    const fault = this.enter('openPullRequest', operation);
    if (!this.branches.has(options.branch)) throw this.failure(operation, 422, 'head does not exist');
    if ([...this.pulls.values()].some(pr => pr.state === 'open' && pr.branch === options.branch)) {
      throw this.failure(operation, 422, `A pull request already exists for ${options.branch}`);
    }
    const pr: PullRequest = {
      number: this.nextNumber++,
      branch: options.branch,
      title: options.title,
      body: options.body,
      state: 'open',
      merged: false,
      labels: [],
      comments: [],
    };
    this.pulls.set(pr.number, pr);
    this.afterApplied(fault, operation);
    return this.infoOf(pr);
  }

  async addLabels(number: number, labels: string[]): Promise<void> {
    const operation = `labelling #${number}`;
    const fault = this.enter('addLabels', operation);
    const pr = this.pullOf(number, operation);
    pr.labels = [...new Set([...pr.labels, ...labels])];
    this.afterApplied(fault, operation);
  }

  async getPullRequest(number: number): Promise<PullRequestInfo> {
    const operation = `reading pull request #${number}`;
    this.enter('getPullRequest', operation);
    return this.infoOf(this.pullOf(number, operation));
  }

  async listOpenPullRequests(): Promise<PullRequestInfo[]> {
    this.enter('listOpenPullRequests', 'listing open pull requests (page 1)');
    return [...this.pulls.values()].filter(pr => pr.state === 'open').map(pr => this.infoOf(pr));
  }

  async findOpenPullRequests(marker: string): Promise<PullRequestInfo[]> {
    this.enter('findOpenPullRequests', 'listing open pull requests (page 1)');
    return [...this.pulls.values()]
      .filter(pr => pr.state === 'open' && pr.body.includes(marker))
      .map(pr => this.infoOf(pr));
  }

  async mergePullRequest(number: number, headSha: string, title: string, message?: string): Promise<MergeOutcome> {
    const operation = `merging pull request #${number}`;
    const fault = this.faultFor('mergePullRequest');
    this.calls.push('mergePullRequest');
    // As the adapter: GitHub's 405 and 409 are outcomes, not failures.
    if (fault?.status === 405) return { merged: false, reason: 'not-mergeable', message: fault.message ?? 'Pull Request is not mergeable' };
    if (fault?.status === 409) return { merged: false, reason: 'head-moved', message: fault.message ?? 'Head branch was modified' };
    if (fault && !fault.applied) throw this.faultFailure(operation, fault);
    const pr = this.pullOf(number, operation);
    if (pr.state !== 'open') return { merged: false, reason: 'not-mergeable', message: 'Pull Request is not open' };
    if (this.branches.get(pr.branch) !== headSha) {
      return { merged: false, reason: 'head-moved', message: 'Head branch was modified. Review and try the merge again.' };
    }
    const missing = this.requiredChecks.find(context => this.latestStatusesOf(headSha)[context]?.state !== 'success');
    if (missing) {
      return { merged: false, reason: 'checks-required', context: missing, message: `Required status check "${missing}" is expected.` };
    }
    const outcome = this.squash(pr, this.mergeActor, message ? `${title}\n\n${message}` : title);
    if (outcome.merged && this.deleteBranchOnMerge) {
      this.branches.delete(pr.branch);
      outcome.headBranchDeleted = true;
    }
    this.afterApplied(fault, operation);
    return outcome;
  }

  async requiredStatusChecks(): Promise<string[] | undefined> {
    try {
      this.enter('requiredStatusChecks', `reading the required status checks of ${this.baseBranch}`);
    } catch {
      // As the adapter: a read that failed is "not known", not an error.
      return undefined;
    }
    return [...this.requiredChecks];
  }

  async closePullRequest(number: number, comment: string): Promise<void> {
    await this.comment(number, comment);
    const operation = `closing pull request #${number}`;
    const fault = this.enter('closePullRequest', operation);
    this.closeByHand(number);
    this.afterApplied(fault, operation);
  }

  async comment(number: number, body: string): Promise<void> {
    const operation = `commenting on #${number}`;
    const fault = this.enter('comment', operation);
    this.pullOf(number, operation).comments.push(body);
    this.afterApplied(fault, operation);
  }

  async setStatus(status: CommitStatusInput): Promise<void> {
    const operation = `setting ${status.context} on ${status.sha}`;
    const fault = this.enter('setStatus', operation);
    if (!this.commits.has(status.sha)) throw this.failure(operation, 422, 'No commit found for SHA');
    this.statuses.push({ ...status, description: status.description.slice(0, 140) });
    this.afterApplied(fault, operation);
  }

  async listCommits(path: string, perPage: number, at?: string): Promise<PlatformRepoCommit[]> {
    this.enter('listCommits', `listing the history of ${path}`);
    const history: PlatformRepoCommit[] = [];
    for (let sha = at ?? this.branches.get(this.baseBranch); sha && history.length < perPage; ) {
      const commit = this.commitOf(sha);
      const parentBlob = commit.parent ? this.commitOf(commit.parent).files.get(path) : undefined;
      if (commit.files.get(path) !== parentBlob) {
        history.push({ sha, author: commit.author, date: commit.date, message: commit.message });
      }
      sha = commit.parent;
    }
    return history;
  }

  // ---- inside ----

  /** Records the call and throws its injected fault, unless the fault lets the write happen first. */
  private enter(method: PlatformRepoMethod, operation: string): PlatformRepoFault | undefined {
    this.calls.push(method);
    const fault = this.faultFor(method);
    if (fault && !fault.applied) throw this.faultFailure(operation, fault);
    return fault;
  }

  /** A fault whose write happened: the answer is lost. */
  private afterApplied(fault: PlatformRepoFault | undefined, operation: string) {
    if (fault) throw this.faultFailure(operation, { ...fault, message: fault.message ?? 'the answer was lost' });
  }

  private faultFor(method: PlatformRepoMethod): PlatformRepoFault | undefined {
    return this.faults.get(method)?.shift();
  }

  /** The error the GitHub adapter throws for a call an injected fault failed. */
  private faultFailure(operation: string, fault: PlatformRepoFault): Error {
    if (fault.unanswered) return new PlatformRepoUnansweredError(`The platform repo did not answer in time while ${operation}`);
    return this.failure(operation, fault.status, fault.message, fault.retryAfterSeconds);
  }

  /** The error the GitHub adapter throws for a failed call. */
  private failure(operation: string, status: number, message = 'injected fault', retryAfterSeconds?: number): Error {
    const text = `The platform repo failed while ${operation} (HTTP ${status}): ${message}`;
    return retryAfterSeconds === undefined
      ? new ServiceUnavailableError(text)
      : new PlatformRepoRateLimitedError(text, retryAfterSeconds);
  }

  private storeBlob(text: string): string {
    const sha = gitBlobShaOf(text);
    this.blobs.set(sha, text);
    return sha;
  }

  private newCommit(parent: string | undefined, files: Map<string, string>, message: string, author: string): string {
    const sha = createHash('sha1')
      .update(`${parent ?? ''}:${this.commitCount++}:${message}:${[...files].join(',')}`)
      .digest('hex');
    this.commits.set(sha, { sha, parent, files, message, author, date: this.clock.now().toISOString() });
    return sha;
  }

  private commitOf(sha: string, required?: true): Commit;
  private commitOf(sha: string, required: false): Commit | undefined;
  private commitOf(sha: string, required = true): Commit | undefined {
    const commit = this.commits.get(sha);
    if (!commit && required) throw new Error(`No commit ${sha}`);
    return commit;
  }

  /** A branch's head, else undefined (the ref may be a sha). */
  private resolve(ref: string): string | undefined {
    return this.branches.get(ref);
  }

  private pullOf(number: number, operation = `reading pull request #${number}`): PullRequest {
    const pr = this.pulls.get(number);
    if (!pr) throw this.failure(operation, 404, 'Not Found');
    return pr;
  }

  private headOf(pr: PullRequest): string {
    return pr.closedHead ?? this.branches.get(pr.branch) ?? '';
  }

  private infoOf(pr: PullRequest): PullRequestInfo {
    return {
      number: pr.number,
      url: `https://github.example/platform/pull/${pr.number}`,
      state: pr.state,
      merged: pr.merged,
      mergedBy: pr.mergedBy,
      headSha: this.headOf(pr),
      headRef: pr.branch,
      body: pr.body,
      mergeable: pr.state === 'open' ? this.conflicts(pr).length === 0 : null,
    };
  }

  private ancestors(sha: string | undefined): string[] {
    const chain: string[] = [];
    for (let at = sha; at; at = this.commitOf(at).parent) chain.push(at);
    return chain;
  }

  /** The newest commit of `sha`'s history that the base branch also has. */
  private mergeBase(sha: string): string {
    const base = new Set(this.ancestors(this.branches.get(this.baseBranch)));
    return this.ancestors(sha).find(at => base.has(at))!;
  }

  /** Paths whose blob differs between two commits. */
  private diff(from: string, to: string): string[] {
    const a = this.commitOf(from).files;
    const b = this.commitOf(to).files;
    return [...new Set([...a.keys(), ...b.keys()])].filter(path => a.get(path) !== b.get(path)).sort();
  }

  /** Paths both the PR and the base branch changed since they parted. */
  private conflicts(pr: PullRequest): string[] {
    const head = this.headOf(pr);
    const base = this.mergeBase(head);
    const theirs = new Set(this.diff(base, this.branches.get(this.baseBranch)!));
    return this.diff(base, head).filter(path => theirs.has(path));
  }

  private squash(pr: PullRequest, by: string, title = `${pr.title} (#${pr.number})`): MergeOutcome {
    if (pr.state !== 'open') return { merged: false, reason: 'not-mergeable', message: 'Pull Request is not open' };
    const conflicts = this.conflicts(pr);
    if (conflicts.length) {
      return { merged: false, reason: 'not-mergeable', message: `Merge conflict in ${conflicts.join(', ')}` };
    }
    const head = this.headOf(pr);
    const baseHead = this.branches.get(this.baseBranch)!;
    const tree = new Map(this.commitOf(baseHead).files);
    for (const path of this.diff(this.mergeBase(head), head)) {
      const blob = this.commitOf(head).files.get(path);
      if (blob === undefined) tree.delete(path);
      else tree.set(path, blob);
    }
    const sha = this.newCommit(baseHead, tree, title, by);
    this.branches.set(this.baseBranch, sha);
    pr.closedHead = head;
    pr.state = 'closed';
    pr.merged = true;
    pr.mergedBy = by;
    return { merged: true, sha };
  }
}
