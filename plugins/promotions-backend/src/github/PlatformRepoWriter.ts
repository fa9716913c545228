import { CacheService } from '@backstage/backend-plugin-api';
import { ServiceUnavailableError } from '@backstage/errors';
import { JsonValue } from '@backstage/types';
import { GithubClient } from './createOctokit';
import { describeAnswer, isNotModified, statusOf, toUpstreamError } from './errors';
import type {
  CommitFilesInput,
  CommitStatusInput,
  MergeOutcome,
  PlatformRepo,
  PlatformRepoCommit,
  PullRequestInfo,
} from '@refplat/plugin-promotions-node';
import { PlatformRepoLocation } from './PlatformRepoReader';

export type { MergeOutcome, PullRequestInfo } from '@refplat/plugin-promotions-node';

/** How long a list's ETag and answer are kept; an evicted one costs one full read. */
const LIST_TTL_MS = 24 * 60 * 60 * 1000;
/** How long the repository's settings are trusted before they are read again. */
const REPO_SETTINGS_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long the base branch's required status checks are trusted: a check made required since
 * costs one refused merge (405), after which they are read again.
 */
const REQUIRED_CHECKS_TTL_MS = 10 * 60 * 1000;
/** GitHub's 405 for a required status check the head lacks: `Required status check "ci" is expected.` */
const REQUIRED_CHECK_REFUSAL = /required status checks? (?:"([^"]+)" )?(?:is|are) (?:expected|in progress|failing)/i;
/** GitHub's largest page. */
const PER_PAGE = 100;

function toPullRequestInfo(pr: {
  number: number;
  html_url: string;
  state: string;
  merged?: boolean | null;
  merged_at?: string | null;
  merged_by?: { login: string } | null;
  head: { sha: string; ref: string };
  body?: string | null;
  mergeable?: boolean | null;
}): PullRequestInfo {
  return {
    number: pr.number,
    url: pr.html_url,
    state: pr.state === 'open' ? 'open' : 'closed',
    merged: Boolean(pr.merged ?? pr.merged_at),
    mergedBy: pr.merged_by?.login,
    headSha: pr.head.sha,
    headRef: pr.head.ref,
    body: pr.body ?? '',
    mergeable: pr.mergeable,
  };
}

/**
 * The platform repo port on GitHub: branches, one-file commits, Release
 * PRs, commit statuses and comments through octokit. Every write goes
 * through a PR; nothing here writes to the base branch directly.
 */
export class PlatformRepoWriter implements PlatformRepo {
  private repoSettings?: { deleteBranchOnMerge: boolean; readAt: number };
  private requiredChecks?: { contexts: string[]; readAt: number };

  constructor(
    private readonly octokit: GithubClient,
    private readonly location: PlatformRepoLocation,
    /** With a cache, lists are read conditionally: unchanged, they are answered 304, which GitHub does not charge. */
    private readonly cache?: CacheService,
  ) {}

  private get repo() {
    return { owner: this.location.owner, repo: this.location.repo };
  }

  /**
   * A GET sent with the ETag of its last answer: 304 returns the remembered
   * value. Each key (each page of a list) has its own ETag, because a 304
   * for one page says nothing about another.
   */
  private async conditional<R extends { headers: { etag?: string } }, T>(
    key: string,
    operation: string,
    request: (headers: Record<string, string>) => Promise<R>,
    read: (response: R) => T,
  ): Promise<T> {
    const cacheKey = `${key}:${this.location.owner}/${this.location.repo}:${this.location.branch}`;
    const cached = await this.cache?.get<{ etag: string; value: JsonValue }>(cacheKey);
    try {
      const response = await request(cached ? { 'if-none-match': cached.etag } : {});
      const value = read(response);
      const etag = response.headers.etag;
      if (etag) {
        await this.cache?.set(cacheKey, { etag, value: value as unknown as JsonValue }, { ttl: LIST_TTL_MS });
      }
      return value;
    } catch (error) {
      if (cached && isNotModified(error)) return cached.value as unknown as T;
      throw toUpstreamError(error, operation);
    }
  }

  private async call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw toUpstreamError(error, operation);
    }
  }

  /** Creates `branch` at `sha`. */
  async createBranch(branch: string, sha: string): Promise<void> {
    await this.call(`creating branch ${branch}`, () =>
      this.octokit.rest.git.createRef({ ...this.repo, ref: `refs/heads/${branch}`, sha }),
    );
  }

  async deleteBranch(branch: string): Promise<void> {
    try {
      await this.octokit.rest.git.deleteRef({ ...this.repo, ref: `heads/${branch}` });
    } catch (error) {
      if (statusOf(error) !== 422 && statusOf(error) !== 404) {
        throw toUpstreamError(error, `deleting branch ${branch}`);
      }
    }
  }

  /** Text and blob sha of a file at a ref. */
  async readFile(path: string, ref: string): Promise<{ text: string; blobSha: string }> {
    const file = await this.readFileIfPresent(path, ref);
    if (!file) throw toUpstreamError({ status: 404, message: 'Not Found' }, `reading ${path}@${ref}`);
    return file;
  }

  /** Like readFile; undefined when the ref has no such file. */
  async readFileIfPresent(path: string, ref: string): Promise<{ text: string; blobSha: string } | undefined> {
    let data;
    try {
      ({ data } = await this.octokit.rest.repos.getContent({ ...this.repo, path, ref }));
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw toUpstreamError(error, `reading ${path}@${ref}`);
    }
    if (Array.isArray(data) || data.type !== 'file' || !('content' in data)) {
      throw new Error(`${path} is not a file`);
    }
    return { text: Buffer.from(data.content, 'base64').toString('utf8'), blobSha: data.sha };
  }

  /**
   * The files `headSha` changes relative to the base branch (from their
   * merge base, as the PR's diff), pinned to that head.
   */
  async changedFiles(headSha: string): Promise<Array<{ filename: string; blobSha?: string }>> {
    const { data } = await this.call(`comparing ${this.location.branch} with ${headSha}`, () =>
      this.octokit.rest.repos.compareCommitsWithBasehead({
        ...this.repo,
        basehead: `${this.location.branch}...${headSha}`,
      }),
    );
    // A removed file's sha is the blob it had: no blob at the head.
    return (data.files ?? []).map(file =>
      file.status === 'removed' || !file.sha ? { filename: file.filename } : { filename: file.filename, blobSha: file.sha },
    );
  }

  /** Branches whose name starts with `prefix`, with the commit each points at. */
  async listBranches(prefix: string): Promise<Array<{ name: string; sha: string }>> {
    return this.conditional(
      `branches:${prefix}`,
      `listing branches ${prefix}*`,
      headers => this.octokit.rest.git.listMatchingRefs({ ...this.repo, ref: `heads/${prefix}`, headers }),
      ({ data }) => data.map(ref => ({ name: ref.ref.replace(/^refs\/heads\//, ''), sha: ref.object.sha })),
    );
  }

  /** When a commit was committed. */
  async commitDate(sha: string): Promise<string> {
    const { data } = await this.call(`reading commit ${sha}`, () =>
      this.octokit.rest.git.getCommit({ ...this.repo, commit_sha: sha }),
    );
    return data.committer.date;
  }

  /**
   * Commits `text` to `path` on `branch`, on top of blob `blobSha`; GitHub
   * answers 409 when the file moved on since, which the caller handles by
   * re-reading and re-applying.
   */
  async commitFile(options: {
    branch: string;
    path: string;
    text: string;
    blobSha: string;
    message: string;
  }): Promise<string> {
    const { data } = await this.call(`committing ${options.path} on ${options.branch}`, () =>
      this.octokit.rest.repos.createOrUpdateFileContents({
        ...this.repo,
        path: options.path,
        branch: options.branch,
        message: options.message,
        content: Buffer.from(options.text, 'utf8').toString('base64'),
        sha: options.blobSha,
      }),
    );
    return data.commit.sha!;
  }

  /**
   * The git data API's way to change several files in one commit: the parent's tree (one
   * read), a tree with the files' new text on it, a commit, then the branch created at it or
   * moved to it (never forced: a head someone moved refuses the update).
   */
  async commitFiles(options: CommitFilesInput): Promise<string> {
    const operation = `committing ${options.files.length} files on ${options.branch}`;
    return this.call(operation, async () => {
      const { data: parent } = await this.octokit.rest.git.getCommit({ ...this.repo, commit_sha: options.parent });
      const { data: tree } = await this.octokit.rest.git.createTree({
        ...this.repo,
        base_tree: answeredSha(parent, parent?.tree?.sha, `commit ${options.parent}`),
        tree: options.files.map(file => ({ path: file.path, mode: '100644' as const, type: 'blob' as const, content: file.text })),
      });
      const { data: commit } = await this.octokit.rest.git.createCommit({
        ...this.repo,
        message: options.message,
        tree: answeredSha(tree, tree?.sha, 'the tree it created'),
        parents: [options.parent],
      });
      const sha = answeredSha(commit, commit?.sha, 'the commit it created');
      if (options.createBranch) {
        await this.octokit.rest.git.createRef({ ...this.repo, ref: `refs/heads/${options.branch}`, sha });
      } else {
        await this.octokit.rest.git.updateRef({ ...this.repo, ref: `heads/${options.branch}`, sha, force: false });
      }
      return sha;
    });
  }

  /**
   * Opens the PR. Labels are added separately (addLabels): once a PR exists
   * it must be recorded before anything optional can fail.
   */
  async openPullRequest(options: { branch: string; title: string; body: string }): Promise<PullRequestInfo> {
    const { data } = await this.call(`opening a pull request from ${options.branch}`, () =>
      this.octokit.rest.pulls.create({
        ...this.repo,
        head: options.branch,
        base: this.location.branch,
        title: options.title,
        body: options.body,
      }),
    );
    return toPullRequestInfo(data);
  }

  async addLabels(number: number, labels: string[]): Promise<void> {
    await this.call(`labelling #${number}`, () =>
      this.octokit.rest.issues.addLabels({ ...this.repo, issue_number: number, labels }),
    );
  }

  async getPullRequest(number: number): Promise<PullRequestInfo> {
    const { data } = await this.call(`reading pull request #${number}`, () =>
      this.octokit.rest.pulls.get({ ...this.repo, pull_number: number }),
    );
    return toPullRequestInfo(data);
  }

  /**
   * Every open PR against the base branch, 100 a page, each page asked with
   * its own ETag: unchanged, the whole list costs only 304s.
   */
  async listOpenPullRequests(): Promise<PullRequestInfo[]> {
    const pulls: PullRequestInfo[] = [];
    for (let page = 1; ; page++) {
      const { items, more } = await this.conditional(
        `pulls-open:${page}`,
        `listing open pull requests (page ${page})`,
        headers =>
          this.octokit.rest.pulls.list({
            ...this.repo,
            state: 'open',
            base: this.location.branch,
            per_page: PER_PAGE,
            page,
            headers,
          }),
        response => ({
          items: response.data.map(toPullRequestInfo),
          more: /rel="next"/.test(response.headers.link ?? ''),
        }),
      );
      pulls.push(...items);
      if (!more || items.length === 0) return pulls;
    }
  }

  /** Open PRs against the base branch whose body contains `marker`. */
  async findOpenPullRequests(marker: string): Promise<PullRequestInfo[]> {
    return (await this.listOpenPullRequests()).filter(pr => pr.body.includes(marker));
  }

  async mergePullRequest(number: number, headSha: string, title: string, message?: string): Promise<MergeOutcome> {
    try {
      const { data } = await this.octokit.rest.pulls.merge({
        ...this.repo,
        pull_number: number,
        sha: headSha,
        merge_method: 'squash',
        commit_title: title,
        ...(message ? { commit_message: message } : {}),
      });
      return { merged: true, sha: data.sha, ...((await this.deletesMergedBranches()) ? { headBranchDeleted: true } : {}) };
    } catch (error) {
      const status = statusOf(error);
      const message = (error as Error).message;
      const requiredCheck = status === 405 ? REQUIRED_CHECK_REFUSAL.exec(message) : null;
      if (requiredCheck) {
        this.requiredChecks = undefined;
        return { merged: false, reason: 'checks-required', ...(requiredCheck[1] ? { context: requiredCheck[1] } : {}), message };
      }
      if (status === 405) return { merged: false, reason: 'not-mergeable', message };
      if (status === 409) return { merged: false, reason: 'head-moved', message };
      throw toUpstreamError(error, `merging pull request #${number}`);
    }
  }

  /**
   * The repository's "Automatically delete head branches" (`delete_branch_on_merge`),
   * read once a day: one charged read saves a branch delete, a write, per merge. Not
   * known (the read failed), the branch is deleted as before.
   */
  private async deletesMergedBranches(): Promise<boolean> {
    const now = Date.now();
    if (!this.repoSettings || this.repoSettings.readAt < now - REPO_SETTINGS_TTL_MS) {
      try {
        const { data } = await this.octokit.rest.repos.get(this.repo);
        this.repoSettings = { deleteBranchOnMerge: data.delete_branch_on_merge === true, readAt: now };
      } catch {
        return false;
      }
    }
    return this.repoSettings.deleteBranchOnMerge;
  }

  /**
   * The base branch's required status checks: its branch protection's (`GET …/branches/{branch}`,
   * readable with contents read, unlike `…/protection`) and its rulesets' (`GET
   * …/rules/branches/{branch}`; a host without rulesets answers 404: none). Two charged reads
   * per REQUIRED_CHECKS_TTL_MS; undefined when either read failed.
   */
  async requiredStatusChecks(): Promise<string[] | undefined> {
    const now = Date.now();
    if (this.requiredChecks && this.requiredChecks.readAt >= now - REQUIRED_CHECKS_TTL_MS) return this.requiredChecks.contexts;
    try {
      const branch = { ...this.repo, branch: this.location.branch };
      const [protection, rules] = await Promise.all([
        this.octokit.rest.repos
          .getBranch(branch)
          .then(({ data }) => (data.protection?.enabled === false ? undefined : data.protection?.required_status_checks)),
        this.octokit.rest.repos
          .getBranchRules(branch)
          .then(({ data }) => data)
          .catch(error => (statusOf(error) === 404 ? [] : Promise.reject(error))),
      ]);
      const fromRules = rules.flatMap(rule =>
        rule.type === 'required_status_checks' ? rule.parameters?.required_status_checks.map(check => check.context) ?? [] : [],
      );
      const contexts = [
        ...new Set([...(protection?.contexts ?? []), ...(protection?.checks ?? []).map(check => check.context), ...fromRules]),
      ];
      this.requiredChecks = { contexts, readAt: now };
      return contexts;
    } catch {
      return undefined;
    }
  }

  async closePullRequest(number: number, comment: string): Promise<void> {
    await this.comment(number, comment);
    await this.call(`closing pull request #${number}`, () =>
      this.octokit.rest.pulls.update({ ...this.repo, pull_number: number, state: 'closed' }),
    );
  }

  async comment(number: number, body: string): Promise<void> {
    await this.call(`commenting on #${number}`, () =>
      this.octokit.rest.issues.createComment({ ...this.repo, issue_number: number, body }),
    );
  }

  async setStatus(options: CommitStatusInput): Promise<void> {
    await this.call(`setting ${options.context} on ${options.sha}`, () =>
      this.octokit.rest.repos.createCommitStatus({
        ...this.repo,
        sha: options.sha,
        context: options.context,
        state: options.state,
        // GitHub limits descriptions to 140 characters.
        description: options.description.slice(0, 140),
        target_url: options.targetUrl,
      }),
    );
  }

  /** Commits that touched `path` on the base branch, newest first. */
  async listCommits(path: string, perPage: number, at?: string): Promise<PlatformRepoCommit[]> {
    const { data } = await this.call(`listing the history of ${path}`, () =>
      this.octokit.rest.repos.listCommits({
        ...this.repo,
        sha: at ?? this.location.branch,
        path,
        per_page: perPage,
      }),
    );
    return data.map(commit => ({
      sha: commit.sha,
      author: commit.author?.login ?? commit.commit.author?.name ?? 'unknown',
      date: commit.commit.author?.date ?? commit.commit.committer?.date ?? '',
      message: commit.commit.message,
    }));
  }
}

/**
 * The sha an answer must carry: a body without one (a proxy's page, a truncated answer) stops
 * the commit with words a person can act on, before anything is built on an undefined sha.
 */
function answeredSha(data: unknown, sha: unknown, what: string): string {
  if (typeof sha === 'string' && /^[0-9a-f]{40,64}$/i.test(sha)) return sha;
  throw new ServiceUnavailableError(`GitHub answered ${what} without its sha (${describeAnswer(data)})`);
}
