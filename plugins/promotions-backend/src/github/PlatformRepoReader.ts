import { CacheService } from '@backstage/backend-plugin-api';
import { ServiceUnavailableError } from '@backstage/errors';
import { RecentResults } from '../health/RecentResults';
import { GithubClient } from './createOctokit';
import { isNotModified, statusOf, toUpstreamError } from './errors';

export interface PlatformRepoLocation {
  owner: string;
  repo: string;
  branch: string;
}

/** Path → blob sha, for the files under the watched prefixes. */
export type RepoFileIndex = Record<string, string>;

/** Blobs and trees never change for a given sha: keep them for a long time. */
const IMMUTABLE_TTL_MS = 24 * 60 * 60 * 1000;
/** A lookup that failed for another reason (5xx, rate limit) is tried again after this. */
const TRANSIENT_FAILURE_TTL_MS = 60 * 1000;

/** GitHub's answer for a revision that is not in the repository: 404, or 422 for a malformed sha. */
function isUnknownRevision(error: unknown): boolean {
  const status = statusOf(error);
  return status === 404 || status === 422;
}

/**
 * Reads the platform repo so that an unchanged repo costs one conditional
 * request (answered 304, free of rate limit): the branch head is checked
 * with its last ETag; trees and blobs are cached by sha, which makes them
 * immutable; everything lives in the CacheService so replicas share it.
 * The head check itself is shared by concurrent callers and reused for
 * `headTtlMs`, so many viewers cost one check per TTL per replica.
 */
export class PlatformRepoReader {
  private readonly heads: RecentResults<string>;

  constructor(
    private readonly octokit: GithubClient,
    private readonly cache: CacheService,
    private readonly location: PlatformRepoLocation,
    /** Only files under these prefixes are kept in a tree index. */
    private readonly prefixes: string[],
    /** How long a branch-head check is reused (promotions.cacheTtl); 0 shares only checks in flight. */
    headTtlMs = 0,
  ) {
    this.heads = new RecentResults(headTtlMs);
    this.forgetHeadAfterWritesBy(octokit);
  }

  /**
   * Any write through this client (a merge above all) may move the branch: the writer's
   * next view must show it at once, not up to a TTL later. Writes are rare next to views.
   * Every client that writes to the platform repo (the Gate has its own) is registered.
   */
  forgetHeadAfterWritesBy(writer: GithubClient): void {
    writer.hook.after('request', (_response, options) => {
      if (options.method !== 'GET' && options.method !== 'HEAD') this.heads.forget();
    });
  }

  /** The commit sha at the head of the configured branch. */
  headCommit(): Promise<string> {
    return this.heads.get('head', () => this.checkHead());
  }

  private async checkHead(): Promise<string> {
    const { owner, repo, branch } = this.location;
    const key = `ref:${owner}/${repo}/${branch}`;
    const cached = await this.cache.get<{ etag: string; sha: string }>(key);
    try {
      const response = await this.octokit.request(
        'GET /repos/{owner}/{repo}/git/ref/{ref}',
        {
          owner,
          repo,
          ref: `heads/${branch}`,
          headers: cached ? { 'if-none-match': cached.etag } : {},
        },
      );
      const sha = response.data.object.sha;
      const etag = response.headers.etag;
      if (etag) await this.cache.set(key, { etag, sha });
      return sha;
    } catch (error) {
      if (cached && isNotModified(error)) return cached.sha;
      throw toUpstreamError(error, `reading branch ${branch} of ${owner}/${repo}`);
    }
  }

  /**
   * Path → blob sha for the watched prefixes at a commit. With `rememberFailure` (for revisions
   * ArgoCD reports, which may not be in this repository) a failed lookup is cached by revision
   * too: a revision GitHub does not know costs one request a day, not one per view.
   */
  async fileIndex(
    commitSha: string,
    options: { rememberFailure?: boolean } = {},
  ): Promise<RepoFileIndex> {
    const key = `tree:${this.location.owner}/${this.location.repo}:${commitSha}:${this.prefixes.join(',')}`;
    const failureKey = `tree-failed:${this.location.owner}/${this.location.repo}:${commitSha}`;
    const cached = await this.cache.get<RepoFileIndex>(key);
    if (cached) return cached;
    if (options.rememberFailure) {
      const failed = await this.cache.get<string>(failureKey);
      if (failed !== undefined) throw new ServiceUnavailableError(failed);
    }
    const { owner, repo } = this.location;
    let data;
    try {
      ({ data } = await this.octokit.request(
        'GET /repos/{owner}/{repo}/git/trees/{tree_sha}',
        { owner, repo, tree_sha: commitSha, recursive: '1' },
      ));
    } catch (error) {
      const upstream = toUpstreamError(error, `reading the tree of ${owner}/${repo}@${commitSha}`);
      if (options.rememberFailure) {
        await this.cache.set(failureKey, upstream.message, {
          ttl: isUnknownRevision(error) ? IMMUTABLE_TTL_MS : TRANSIENT_FAILURE_TTL_MS,
        });
      }
      throw upstream;
    }
    if (data.truncated) {
      throw new Error(
        `The tree of ${owner}/${repo}@${commitSha} is too large for one GitHub response; move the Release records to a smaller repository`,
      );
    }
    const index: RepoFileIndex = {};
    for (const entry of data.tree) {
      if (
        entry.type === 'blob' &&
        entry.path &&
        entry.sha &&
        this.prefixes.some(prefix => entry.path!.startsWith(`${prefix}/`))
      ) {
        index[entry.path] = entry.sha;
      }
    }
    await this.cache.set(key, index, { ttl: IMMUTABLE_TTL_MS });
    return index;
  }

  /** A file's text by its blob sha. */
  async readBlob(blobSha: string): Promise<string> {
    const key = `blob:${this.location.owner}/${this.location.repo}:${blobSha}`;
    const cached = await this.cache.get<string>(key);
    if (cached !== undefined) return cached;
    const { owner, repo } = this.location;
    let data;
    try {
      ({ data } = await this.octokit.request(
        'GET /repos/{owner}/{repo}/git/blobs/{file_sha}',
        { owner, repo, file_sha: blobSha },
      ));
    } catch (error) {
      throw toUpstreamError(error, `reading blob ${blobSha} of ${owner}/${repo}`);
    }
    const text =
      data.encoding === 'base64'
        ? Buffer.from(data.content, 'base64').toString('utf8')
        : data.content;
    await this.cache.set(key, text, { ttl: IMMUTABLE_TTL_MS });
    return text;
  }
}
