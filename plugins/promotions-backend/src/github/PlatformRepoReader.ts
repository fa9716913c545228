import { CacheService } from '@backstage/backend-plugin-api';
import type { PlatformRepoFiles, RepoFileIndex } from '@refplat/plugin-promotions-node';
import { ServiceUnavailableError } from '@backstage/errors';
import { RecentResults } from '../health/RecentResults';
import { LRUCache } from 'lru-cache';
import { GithubClient } from './createOctokit';
import { describeAnswer, isNotModified, statusOf, toUpstreamError } from './errors';
import { gitBlobSha, unpackRepoTarball } from './repoTarball';
import { ChangedFile, IndexChanges, indexChanges, mayBeCut, withChanges } from './changedFiles';

export interface PlatformRepoLocation {
  owner: string;
  repo: string;
  branch: string;
}

export type { RepoFileIndex } from '@refplat/plugin-promotions-node';

/** A commit as GitHub's GET commits/{ref} answers it, with the files it changed. */
export type ListedCommit = {
  sha: string;
  parents: string[];
  message: string;
  /** When it landed on the branch: the committer's date (a merge's or squash's time). */
  at: string;
  files: Array<{ filename: string; status: string; sha: string }>;
  /** GitHub may have left some of its files out (it lists 300 a page). */
  filesCut: boolean;
};

/** The commit answer's fields ListedCommit keeps (GitHub's `commit` schema). */
export interface CommitAnswer {
  sha: string;
  parents?: Array<{ sha: string }>;
  commit?: { message?: string; committer?: { date?: string } | null; author?: { date?: string } | null };
  files?: ChangedFile[];
}

/** The commit in GitHub's answer; `filesCut` says whether GitHub may have left files out of its list. */
export function listedCommit(data: CommitAnswer, filesCut: boolean): ListedCommit {
  return {
    sha: data.sha,
    parents: (data.parents ?? []).map(parent => parent.sha),
    message: data.commit?.message ?? '',
    at: data.commit?.committer?.date ?? data.commit?.author?.date ?? new Date().toISOString(),
    files: (data.files ?? []).map(f => ({ filename: f.filename, status: f.status, sha: f.sha ?? '' })),
    filesCut,
  };
}

/** Blobs and trees never change for a given sha: keep them for a long time. */
const IMMUTABLE_TTL_MS = 24 * 60 * 60 * 1000;
/** A lookup that failed for another reason (5xx, rate limit) is tried again after this. */
const TRANSIENT_FAILURE_TTL_MS = 60 * 1000;
/** Indexes kept in process: the head's, and a few revisions ArgoCD reports. */
const RECENT_INDEXES = 4;
/**
 * An index derived from another by a few changed files is kept in the shared
 * cache as those changes (to the last whole index before it) up to this many
 * paths; past it, whole again. Whole, each of 100 merges and CI pushes kept
 * another copy of a 100,000-file index for a day: gigabytes in a memory cache.
 */
const MAX_KEPT_CHANGES = 5_000;
/**
 * Parsed files kept in process, in characters of their JSON (about a third of
 * what they take in the heap): every Release and Environment of 10,000
 * Products of 3 services and 5 stages (23 M), so that an auto-promoter run
 * over an organisation parses only what changed since the last one. Bounded
 * by size, not count: a larger organisation, or wider Products, parse their
 * least recently read files again (their text is in the shared cache) rather
 * than grow the process.
 */
const PARSED_FILES_MAX_CHARS = 32_000_000;
/**
 * How an index is kept in the shared cache: whole, or as the changes from a
 * whole one (`base`, a commit whose index is kept whole).
 */
type KeptIndex = { whole: true } | { base: string; changes: IndexChanges };
const WHOLE: KeptIndex = { whole: true };

/** An index with how it is kept. */
interface KnownIndex {
  index: RepoFileIndex;
  kept: KeptIndex;
}

/**
 * More uncached blobs than this in a new tree are read through the commit's
 * tarball (two requests, the 302 and the download) instead of one request
 * each: a cold start costs the same at 10 Products as at 10,000.
 */
export const TARBALL_THRESHOLD = 20;
/**
 * A read that needs more uncached blobs than this (a Product's ladder: its 5
 * Release records and 5 Environments) goes through the tarball too when the
 * repository is small: one charged request (the 302; GitHub does not charge
 * the codeload download) instead of one each, and every other Product's files
 * land in the cache with it. Up to this many, one request each costs no more.
 */
export const FEW_BLOBS = 3;
/**
 * The most bytes of files (the tree listing's sizes, the tarball unpacked) a
 * repository may have for a person's view to wait on its tarball for a few
 * files: about 150 Products of 10 files, some 40 KB gzipped. Measured on the
 * simulator (2 cores, load 7), the tarball of 150 Products took 0.3–0.5 s
 * downloaded, unpacked and cached, 10 blob reads 0.1–0.2 s; of 800 Products,
 * 1.6–3.3 s. A larger repository's few files are read one by one,
 * concurrently, so that a slow codeload never holds a view; its cold start
 * still reads the tarball (TARBALL_THRESHOLD).
 */
export const SMALL_REPO_BYTES = 512 * 1024;
/** How long a blob seen in the cache (not written by us, so of unknown age) is assumed to stay there. */
const SEEN_BLOB_MS = 60 * 60 * 1000;
/**
 * How many blobs a replica remembers being in the cache: twice the files of 10,000 Products.
 * One it forgot is looked up in the cache again.
 */
const KNOWN_CACHED_BLOBS = 200_000;

/** GitHub's answer for a revision that is not in the repository: 404, or 422 for a malformed sha. */
function isUnknownRevision(error: unknown): boolean {
  const status = statusOf(error);
  return status === 404 || status === 422;
}

/**
 * Reads the platform repo so that an unchanged repo costs one conditional
 * request (answered 304, free of rate limit): the branch head is checked
 * with its last ETag; a head one commit past a known index (a merge) gets
 * its index from that commit's changed files, without a tree read; trees
 * and blobs are cached by sha, which makes them
 * immutable; everything lives in the CacheService so replicas share it.
 * The head check itself is shared by concurrent callers and reused for
 * `headTtlMs`, so many viewers cost one check per TTL per replica. A tree
 * with many blobs no cache holds (a cold start) is read through the
 * commit's tarball: a handful of requests at any number of Products.
 */
export class PlatformRepoReader implements PlatformRepoFiles {
  private readonly heads: RecentResults<string>;
  /** Index reads in flight, shared by concurrent callers (a cold start downloads one tarball). */
  private readonly indexReads = new RecentResults<KnownIndex>(0);
  /**
   * Tarball reads in flight by commit, shared by concurrent callers (two Products' views,
   * a scan): one download, and it lands in the cache even when its first caller stopped waiting.
   */
  private readonly tarballReads = new RecentResults<RepoFileIndex>(0);
  /**
   * Blob reads in flight by sha, shared by concurrent callers (two files with the same
   * text): one request, which finishes and lands in the cache whoever still waits for it.
   */
  private readonly blobReads = new RecentResults<string>(0);
  /**
   * The indexes read last, by commit (immutable): a scan of many Products asks
   * for the same index once per Product, and the CacheService hands out a
   * fresh copy each time (the memory store too: 2 s for 100,000 files).
   */
  private readonly recentIndexes = new LRUCache<string, KnownIndex>({ max: RECENT_INDEXES });
  /**
   * Parsed files by parser and blob sha (immutable): a ladder build reads all of a Product's
   * files, and fetching each blob from the CacheService and parsing its YAML again was a
   * tenth of a 30-Service build's CPU.
   */
  private readonly parsedFiles = new LRUCache<string, {}>({
    maxSize: PARSED_FILES_MAX_CHARS,
    sizeCalculation: parsed => JSON.stringify(parsed)?.length || 1,
  });
  /**
   * Blob shas this replica knows are in the cache, each until its own expiry: stale entries
   * expire as they are looked up, so a cold decision's count over 100,000 blobs per Product
   * is not a sweep of them all (a scan per call took 12 of its 47 CPU-seconds).
   */
  private readonly cachedBlobs = new LRUCache<string, true>({
    ttl: SEEN_BLOB_MS,
    maxSize: KNOWN_CACHED_BLOBS,
    sizeCalculation: () => 1,
  });

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
    writer.hook.after('request', async (response, options) => {
      if (options.method === 'GET' || options.method === 'HEAD') return;
      this.heads.forget();
      await this.rememberCommittedFile(response.data, options);
    });
  }

  /**
   * A file this replica commits (a Release PR's one commit) is in the request
   * already: its blob goes into the cache, so that once the PR merges the
   * snapshot reads it from there, not from GitHub. Kept only when GitHub's
   * blob sha is the text's own.
   */
  private async rememberCommittedFile(answer: unknown, request: { method: string; url: string; content?: unknown }) {
    const blobSha = (answer as { content?: { sha?: unknown } } | undefined)?.content?.sha;
    if (request.method !== 'PUT' || !request.url.includes('/contents/')) return;
    if (typeof request.content !== 'string' || typeof blobSha !== 'string') return;
    const bytes = Buffer.from(request.content, 'base64');
    if (gitBlobSha(bytes) !== blobSha) return;
    await this.rememberBlob(blobSha, bytes.toString('utf8')).catch(() => undefined);
  }

  /** The branch moved (a push webhook said so): the next read checks GitHub again. */
  forgetHead(): void {
    this.heads.forget();
  }

  /**
   * The commit sha at the head of the configured branch, from a recent check
   * unless `fresh` (a conditional request: free while the branch is unchanged).
   */
  headCommit(options?: { fresh?: boolean }): Promise<string> {
    if (options?.fresh) this.heads.forget();
    return this.heads.get('head', () => this.checkHead());
  }

  /**
   * GET commits/heads/{branch} with the last ETag: a 304 while the branch is
   * unchanged (free of rate limit), else the head commit with its parents and
   * changed files, from which `indexFromParent` derives the new index.
   */
  private async checkHead(): Promise<string> {
    const { owner, repo, branch } = this.location;
    const key = `head-commit:${owner}/${repo}/${branch}`;
    const cached = await this.cache.get<{ etag: string; sha: string }>(key);
    let response;
    try {
      response = await this.octokit.request('GET /repos/{owner}/{repo}/commits/{ref}', {
        owner,
        repo,
        ref: `heads/${branch}`,
        headers: cached ? { 'if-none-match': cached.etag } : {},
      });
    } catch (error) {
      if (cached && isNotModified(error)) return cached.sha;
      throw toUpstreamError(error, `reading branch ${branch} of ${owner}/${repo}`);
    }
    const sha = response.data?.sha;
    if (typeof sha !== 'string') {
      throw new ServiceUnavailableError(
        `GitHub answered the head of branch ${branch} of ${owner}/${repo} without its sha (${describeAnswer(response.data)})`,
      );
    }
    // Only the head is needed here: a failure to derive its index leaves the tree to be read.
    await this.indexFromParent(response.data, response.headers.link).catch(() => undefined);
    await this.rememberHeadCommit(response.data, response.headers.link).catch(() => undefined);
    const etag = response.headers.etag;
    if (etag) await this.cache.set(key, { etag, sha });
    return sha;
  }

  /**
   * The head commit as GitHub answered it, for the delivery-metrics reader,
   * which reads every commit of the branch: a merge the head check saw then
   * costs that reader no request of its own.
   */
  private async rememberHeadCommit(data: CommitAnswer, link: string | undefined): Promise<void> {
    const commit = listedCommit(data, mayBeCut(data.files, link));
    if (!commit.filesCut) await this.cache.set(this.listedCommitKey(commit.sha), commit, { ttl: IMMUTABLE_TTL_MS });
  }

  /** A commit this replica (or another, through the shared cache) read as the branch head; undefined otherwise. */
  async headCommitRead(sha: string): Promise<ListedCommit | undefined> {
    return this.cache.get<ListedCommit>(this.listedCommitKey(sha));
  }

  private listedCommitKey(sha: string): string {
    return `listed-commit:${this.location.owner}/${this.location.repo}:${sha}`;
  }

  /**
   * A branch moved by one commit (a squash merge, a push of one commit) whose
   * parent's index is known: the new index is that one with the commit's
   * changed files applied, and its tree is not read. Not when GitHub may have
   * cut the list of files, or when many of the new blobs are in no cache (the
   * tree read then fetches them through the tarball).
   */
  private async indexFromParent(
    commit: { sha: string; parents?: { sha: string }[]; files?: ChangedFile[] },
    link: string | undefined,
  ): Promise<void> {
    if (commit.parents?.length !== 1 || link?.includes('rel="next"')) return;
    if (await this.isIndexKept(commit.sha)) return;
    const parentSha = commit.parents[0].sha;
    const parent = await this.keptIndex(parentSha);
    if (!parent) return;
    const changes = indexChanges(commit.files, path => this.isWatched(path));
    if (!changes) return;
    const changed = Object.values(changes).filter((sha): sha is string => sha !== null);
    if (await this.manyUncached(changed)) return;
    await this.rememberIndex(commit.sha, derivedIndex(parentSha, parent, changes));
  }

  /**
   * Path → blob sha for the watched prefixes at a commit. With `rememberFailure` (for revisions
   * ArgoCD reports, which may not be in this repository) a failed lookup is cached by revision
   * too: a revision GitHub does not know costs one request a day, not one per view.
   * Concurrent callers for one commit share the reading.
   */
  async fileIndex(
    commitSha: string,
    options: { rememberFailure?: boolean } = {},
  ): Promise<RepoFileIndex> {
    const kept = await this.keptIndex(commitSha);
    if (kept) return kept.index;
    const key = this.indexKey(commitSha);
    const read = await this.indexReads.get(`${key}:${Boolean(options.rememberFailure)}`, async () => {
      const known = await this.readIndex(commitSha, options);
      await this.rememberIndex(commitSha, known);
      return known;
    });
    return read.index;
  }

  /** A commit's index from this replica's recent ones or the shared cache; undefined when neither has it. */
  private async keptIndex(commitSha: string): Promise<KnownIndex | undefined> {
    const key = this.indexKey(commitSha);
    const recent = this.recentIndexes.get(key);
    if (recent) return recent;
    const whole = await this.cache.get<RepoFileIndex>(key);
    if (whole) return this.keepRecent(key, { index: whole, kept: WHOLE });
    const kept = await this.cache.get<{ base: string; changes: IndexChanges }>(this.indexChangesKey(commitSha));
    // A base past its day in the cache (or never kept): the index is read again.
    const base = kept && (await this.keptIndex(kept.base));
    if (!kept || !base) return undefined;
    return this.keepRecent(key, { index: withChanges(base.index, kept.changes), kept });
  }

  private keepRecent(key: string, known: KnownIndex): KnownIndex {
    this.recentIndexes.set(key, known);
    return known;
  }

  /** Whether this replica or the shared cache has a commit's index, without reading it. */
  private async isIndexKept(commitSha: string): Promise<boolean> {
    const key = this.indexKey(commitSha);
    if (this.recentIndexes.has(key)) return true;
    if ((await this.cache.get(key)) !== undefined) return true;
    return (await this.cache.get(this.indexChangesKey(commitSha))) !== undefined;
  }

  private async rememberIndex(commitSha: string, known: KnownIndex): Promise<void> {
    const key = this.indexKey(commitSha);
    if ('whole' in known.kept) await this.cache.set(key, known.index, { ttl: IMMUTABLE_TTL_MS });
    else await this.cache.set(this.indexChangesKey(commitSha), known.kept, { ttl: IMMUTABLE_TTL_MS });
    await this.cache.set(this.latestIndexKey, commitSha, { ttl: IMMUTABLE_TTL_MS });
    this.recentIndexes.set(key, known);
  }

  private indexKey(commitSha: string): string {
    return `tree:${this.location.owner}/${this.location.repo}:${commitSha}:${this.prefixes.join(',')}`;
  }

  private indexChangesKey(commitSha: string): string {
    return `tree-changes:${this.location.owner}/${this.location.repo}:${commitSha}:${this.prefixes.join(',')}`;
  }

  /** The commit of the index read last: the base a large repo's next index is derived from. */
  private get latestIndexKey(): string {
    return `tree-latest:${this.location.owner}/${this.location.repo}:${this.prefixes.join(',')}`;
  }

  /** Set once GitHub truncated a tree of this repository: its trees are too large to list. */
  private get truncatedKey(): string {
    return `tree-truncated:${this.location.owner}/${this.location.repo}`;
  }

  /** The bytes of the files of the tree read last: how large the repository's tarball is. */
  private get repoBytesKey(): string {
    return `repo-bytes:${this.location.owner}/${this.location.repo}`;
  }

  /**
   * The tree listing (one request), then the blobs it names that no cache
   * holds: through the tarball when there are many, else left to `readBlob`.
   * A tree too large for one GitHub response is read from the tarball alone.
   */
  private async readIndex(
    commitSha: string,
    options: { rememberFailure?: boolean },
  ): Promise<KnownIndex> {
    const failureKey = `tree-failed:${this.location.owner}/${this.location.repo}:${commitSha}`;
    if (options.rememberFailure) {
      const failed = await this.cache.get<string>(failureKey);
      if (failed !== undefined) throw new ServiceUnavailableError(failed);
    }
    if (await this.cache.get<boolean>(this.truncatedKey)) {
      const derived = await this.indexFromComparison(commitSha);
      if (derived) return (await this.manyUncached(Object.values(derived.index))) ? this.readWhole(commitSha) : derived;
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
    // A proxy or a GitHub in trouble may answer 200 with something else: say so, never a TypeError.
    if (!Array.isArray(data?.tree)) {
      throw new ServiceUnavailableError(
        `GitHub answered the tree of ${owner}/${repo}@${commitSha} without its list of entries (${describeAnswer(data)})`,
      );
    }
    // GitHub lists at most 100,000 entries (7 MB): the archive has them all.
    if (data.truncated) {
      await this.cache.set(this.truncatedKey, true, { ttl: IMMUTABLE_TTL_MS });
      await this.cache.delete(this.repoBytesKey);
      return this.readWhole(commitSha);
    }
    const index: RepoFileIndex = {};
    for (const entry of data.tree) {
      if (entry.type === 'blob' && entry.path && entry.sha && this.isWatched(entry.path)) {
        index[entry.path] = entry.sha;
      }
    }
    await this.rememberRepoBytes(filesBytes(data.tree));
    if (await this.manyUncached(Object.values(index))) await this.readTarball(commitSha);
    return { index, kept: WHOLE };
  }

  private async readWhole(commitSha: string): Promise<KnownIndex> {
    return { index: await this.readTarball(commitSha), kept: WHOLE };
  }

  /**
   * For a repository too large to list: the last index read, changed by
   * GET compare/{last}...{commit} (one request, at most 300 files, each with
   * its blob sha). Undefined when that cannot say it exactly (not a
   * descendant, too many files, a rename without its old name, a failure):
   * the caller reads the whole tree instead.
   */
  private async indexFromComparison(commitSha: string): Promise<KnownIndex | undefined> {
    const base = await this.cache.get<string>(this.latestIndexKey);
    if (!base || base === commitSha) return undefined;
    const baseIndex = await this.keptIndex(base);
    if (!baseIndex) return undefined;
    const { owner, repo } = this.location;
    let data;
    try {
      ({ data } = await this.octokit.rest.repos.compareCommitsWithBasehead({
        owner,
        repo,
        basehead: `${base}...${commitSha}`,
        per_page: 1,
      }));
    } catch {
      return undefined;
    }
    if (data.status !== 'ahead' && data.status !== 'identical') return undefined;
    const changes = indexChanges(data.files ?? [], path => this.isWatched(path));
    return changes && derivedIndex(base, baseIndex, changes);
  }

  private isWatched(path: string): boolean {
    return this.prefixes.some(prefix => path.startsWith(`${prefix}/`));
  }

  private blobKey(blobSha: string): string {
    return `blob:${this.location.owner}/${this.location.repo}:${blobSha}`;
  }

  /** More than TARBALL_THRESHOLD of these blobs are in no cache? */
  private async manyUncached(blobShas: string[]): Promise<boolean> {
    return (await this.uncachedCount(blobShas, TARBALL_THRESHOLD)) > TARBALL_THRESHOLD;
  }

  /**
   * How many of these blobs are in no cache, counted up to one past `limit`.
   * Blobs this replica wrote or saw lately are not asked for again, and
   * counting stops past the limit, so a cold start asks the cache a few times only.
   */
  private async uncachedCount(blobShas: string[], limit: number): Promise<number> {
    let missing = 0;
    for (const sha of new Set(blobShas)) {
      if (this.cachedBlobs.has(sha)) continue;
      if ((await this.cache.get<string>(this.blobKey(sha))) !== undefined) {
        this.cachedBlobs.set(sha, true);
        continue;
      }
      missing += 1;
      if (missing > limit) break;
    }
    return missing;
  }

  private async rememberRepoBytes(bytes: number | undefined): Promise<void> {
    if (bytes === undefined) await this.cache.delete(this.repoBytesKey);
    else await this.cache.set(this.repoBytesKey, bytes, { ttl: IMMUTABLE_TTL_MS });
  }

  /** Whether the tree read last was at most SMALL_REPO_BYTES of files; unknown is not small. */
  private async isSmallRepo(): Promise<boolean> {
    const bytes = await this.cache.get<number>(this.repoBytesKey);
    return bytes !== undefined && bytes <= SMALL_REPO_BYTES;
  }

  /**
   * Reads the whole commit through GET tarball/{ref} (GitHub answers 302 to
   * codeload; octokit follows it) and puts every watched file into the blob
   * cache under its git blob sha. Returns the watched files' index.
   * Concurrent callers for one commit share the download.
   */
  private readTarball(commitSha: string): Promise<RepoFileIndex> {
    return this.tarballReads.get(commitSha, () => this.downloadTarball(commitSha));
  }

  private async downloadTarball(commitSha: string): Promise<RepoFileIndex> {
    const { owner, repo } = this.location;
    let bytes: Buffer;
    try {
      const response = await this.octokit.rest.repos.downloadTarballArchive({ owner, repo, ref: commitSha });
      bytes = Buffer.from(response.data as ArrayBuffer);
    } catch (error) {
      throw toUpstreamError(error, `downloading the tarball of ${owner}/${repo}@${commitSha}`);
    }
    let files: Map<string, Buffer>;
    try {
      files = await unpackRepoTarball(bytes, path => this.isWatched(path));
    } catch (error) {
      throw new ServiceUnavailableError(
        `The tarball of ${owner}/${repo}@${commitSha} could not be unpacked: ${(error as Error).message}`,
      );
    }
    const index: RepoFileIndex = {};
    const written = new Set<string>();
    for (const [path, content] of files) {
      const sha = gitBlobSha(content);
      index[path] = sha;
      if (written.has(sha)) continue;
      written.add(sha);
      await this.rememberBlob(sha, content.toString('utf8'));
    }
    return index;
  }

  /**
   * Readies blobs of a commit for `readBlob`: through its tarball (one request and its download)
   * when more than TARBALL_THRESHOLD are in no cache, or more than FEW_BLOBS in a small
   * repository; else nothing, left to one read each. In a small repository the tarball only
   * saves requests: when it fails, the blobs are read one by one instead.
   */
  async prefetchBlobs(commitSha: string, blobShas: string[]): Promise<void> {
    const uncached = await this.uncachedCount(blobShas, TARBALL_THRESHOLD);
    if (uncached > TARBALL_THRESHOLD) {
      await this.readTarball(commitSha);
    } else if (uncached > FEW_BLOBS && (await this.isSmallRepo())) {
      await this.readTarball(commitSha).catch(() => undefined);
    }
  }

  private async rememberBlob(blobSha: string, text: string): Promise<void> {
    await this.cache.set(this.blobKey(blobSha), text, { ttl: IMMUTABLE_TTL_MS });
    // Trusted a little less long than it is kept, so a check never relies on an expired entry.
    this.cachedBlobs.set(blobSha, true, { ttl: IMMUTABLE_TTL_MS - SEEN_BLOB_MS });
  }

  /**
   * A file parsed by `parse`, by its blob sha: parsed once per replica while it stays among the
   * recently used. `kind` names the parser (the same blob may be read as two kinds). Callers
   * share the parsed value and must not change it.
   */
  async readParsedBlob<T>(blobSha: string, kind: string, parse: (text: string) => T): Promise<T> {
    const key = `${kind}:${blobSha}`;
    const known = this.parsedFiles.get(key);
    if (known !== undefined) return known as T;
    const parsed = parse(await this.readBlob(blobSha));
    // A file that parses to nothing (null) is not kept: the cache holds values only.
    if (parsed !== undefined && parsed !== null) this.parsedFiles.set(key, parsed);
    return parsed;
  }

  /**
   * A file's text by its blob sha, from the cache, else from GitHub: concurrent callers share
   * one request, which lands in the cache even when every caller stopped waiting for it.
   */
  async readBlob(blobSha: string): Promise<string> {
    const cached = await this.cache.get<string>(this.blobKey(blobSha));
    if (cached !== undefined) return cached;
    return this.blobReads.get(blobSha, () => this.downloadBlob(blobSha));
  }

  private async downloadBlob(blobSha: string): Promise<string> {
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
    if (typeof data?.content !== 'string') {
      throw new ServiceUnavailableError(`GitHub answered blob ${blobSha} of ${owner}/${repo} without its content (${describeAnswer(data)})`);
    }
    const text =
      data.encoding === 'base64'
        ? Buffer.from(data.content, 'base64').toString('utf8')
        : data.content;
    await this.rememberBlob(blobSha, text);
    return text;
  }
}

/**
 * `parent`'s index with `changes` applied, kept as the changes from the last
 * whole index (the parent's own changes and these), or whole when they grow
 * past MAX_KEPT_CHANGES.
 */
function derivedIndex(parentSha: string, parent: KnownIndex, changes: IndexChanges): KnownIndex {
  const index = withChanges(parent.index, changes);
  const kept =
    'whole' in parent.kept
      ? { base: parentSha, changes }
      : { base: parent.kept.base, changes: { ...parent.kept.changes, ...changes } };
  return { index, kept: Object.keys(kept.changes).length > MAX_KEPT_CHANGES ? WHOLE : kept };
}

/** The bytes of a tree listing's files (its commit's tarball, unpacked); undefined when a file's size is not given. */
function filesBytes(tree: Array<{ type?: string; size?: number }>): number | undefined {
  let bytes = 0;
  for (const entry of tree) {
    if (entry.type !== 'blob') continue;
    if (typeof entry.size !== 'number') return undefined;
    bytes += entry.size;
  }
  return bytes;
}
