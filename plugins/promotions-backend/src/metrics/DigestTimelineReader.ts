import { LoggerService } from '@backstage/backend-plugin-api';
import type { DigestArrival } from '@refplat/plugin-promotions-common';
import { PromotionsConfig } from '../config';
import { GithubClient } from '../github/createOctokit';
import { toUpstreamError } from '../github/errors';
import { CommitAnswer, ListedCommit, listedCommit, PlatformRepoReader } from '../github/PlatformRepoReader';
import { parseRelease } from '../releases/records';
import { DigestTimelineStore } from './DigestTimelineStore';
import { pullRequestOfCommit, releaseFileOf } from './releaseCommits';

/** GitHub lists at most 3,000 of a commit's files, 300 a page: a list this long may be cut. */
const MAX_COMMIT_FILES = 3000;
const MAX_COMMIT_FILE_PAGES = 10;

/** A branch commit to read into the timelines. */
type BranchCommit = ListedCommit & { parent?: string };

/**
 * Reads the platform branch's new commits into per-digest timelines. From
 * the head the scan already knows, it walks first parents back to the last
 * commit read: one GET commits/{sha} per new commit (its changed files with
 * their blob shas, its time and message), none for a commit the reader's
 * head check already read. A changed Release record's text
 * comes through the reader's blob cache, where the scan has put the head's
 * records; only a commit that was never the head when scanned costs a blob
 * read more per Release file it changed.
 */
export class DigestTimelineReader {
  private readonly branchKey: string;
  /** The read in progress: the metrics task and the auto-promoter's catch-up share it. */
  private reading?: Promise<number>;

  constructor(
    private readonly options: {
      config: PromotionsConfig;
      octokit: GithubClient;
      reader: PlatformRepoReader;
      store: DigestTimelineStore;
      logger: LoggerService;
    },
  ) {
    const { owner, repo, branch } = options.config.platformRepo;
    this.branchKey = `${owner}/${repo}/${branch}`;
  }

  /** The key the store keeps this branch's cursor under. */
  get branch(): string {
    return this.branchKey;
  }

  /** Reads every commit since the last one read; returns how many were read. Concurrent callers share one read. */
  readNewCommits(): Promise<number> {
    this.reading ??= this.readSinceCursor().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  private async readSinceCursor(): Promise<number> {
    const { reader, store, config, logger } = this.options;
    const head = await reader.headCommit();
    const last = await store.cursor(this.branchKey);
    if (head === last) return 0;
    const commits: BranchCommit[] = [];
    let sha: string | undefined = head;
    while (sha && sha !== last) {
      if (commits.length === config.metrics.backfillCommits) {
        logger.warn(
          `Delivery metrics: more than ${commits.length} new commits on ${this.branchKey}; older ones are not read`,
        );
        break;
      }
      const commit: BranchCommit = await this.readCommit(sha);
      commits.push(commit);
      sha = commit.parent;
    }
    // Stopped short of the cursor (the backfill's limit, or history rewritten under it): a gap.
    const gapBeforeOldest = sha !== last;
    // Oldest first: each commit's arrivals compare with the one before.
    let previous = last;
    for (const [index, commit] of commits.reverse().entries()) {
      const gapBefore = (index === 0 && gapBeforeOldest) || commit.filesCut;
      const recorded = await store.recordCommit(this.branchKey, commit.sha, await this.arrivalsIn(commit), {
        previous,
        gapBefore,
      });
      // Another reader (a replica) is recording these commits.
      if (!recorded) return index;
      previous = commit.sha;
    }
    return commits.length;
  }

  private async readCommit(sha: string): Promise<BranchCommit> {
    const { owner, repo } = this.options.config.platformRepo;
    const seen = await this.options.reader.headCommitRead(sha);
    if (seen) return { ...seen, parent: seen.parents[0] };
    try {
      // GitHub lists a commit's files a page at a time, each page the whole commit with the next
      // files; octokit's iterator follows the Link header from one to the next.
      const { octokit } = this.options;
      const pages: CommitAnswer[] = [];
      for await (const { data } of octokit.paginate.iterator(octokit.rest.repos.getCommit, { owner, repo, ref: sha })) {
        // The iterator's types are a list endpoint's; a commit's pages are passed through whole.
        pages.push(data as unknown as CommitAnswer);
        if (pages.length === MAX_COMMIT_FILE_PAGES) break;
      }
      const files = pages.flatMap(page => page.files ?? []);
      const commit = listedCommit({ ...pages[0], files }, files.length >= MAX_COMMIT_FILES);
      // More than GitHub lists (an import of hundreds of Products at once): a gap in
      // the history, not a page of arrivals chosen by GitHub.
      return { ...commit, files: commit.filesCut ? [] : commit.files, parent: commit.parents[0] };
    } catch (error) {
      throw toUpstreamError(error, `reading commit ${sha} of ${owner}/${repo}`);
    }
  }

  /** The digests a commit changed in Release records, with its PR and the plugin's promotion when known. */
  private async arrivalsIn(commit: BranchCommit): Promise<DigestArrival[]> {
    const { config, reader, store, logger } = this.options;
    const pullRequest = pullRequestOfCommit(commit.message);
    const arrivals: DigestArrival[] = [];
    // A commit that onboards many Products changes hundreds of records: one tarball, not a read each.
    const releaseBlobs = commit.files.flatMap(file =>
      file.sha && file.status !== 'removed' && releaseFileOf(file.filename, config.releasesPath, config.stages)
        ? [file.sha]
        : [],
    );
    await reader.prefetchBlobs(commit.sha, releaseBlobs);
    for (const file of commit.files) {
      const release = releaseFileOf(file.filename, config.releasesPath, config.stages);
      if (!release || file.status === 'removed' || !file.sha) continue;
      // A failed read fails the run before the cursor moves: the next run reads this commit again.
      const text = await reader.readBlob(file.sha);
      let services: Record<string, string>;
      try {
        services = parseRelease(text).services;
      } catch (error) {
        // A broken record deploys nothing new: the next good one is compared with the last good one.
        logger.warn(`Delivery metrics: ${file.filename} at ${commit.sha} skipped: ${error}`);
        continue;
      }
      const { product, stage } = release;
      // A created record onboards the Product in that stage. A `renamed` one (moved from a similar file, possibly
      // with a digest changed on the way) is not clearly an onboarding, so it arrives as any change does.
      const onboarding = file.status === 'added';
      const current = await store.currentDigests(product, stage);
      const promotionId = pullRequest ? await store.promotionOf(product, pullRequest) : undefined;
      for (const [service, digest] of Object.entries(services)) {
        if (current[service] === digest) continue;
        arrivals.push({
          ...product,
          stage,
          service,
          digest,
          at: commit.at,
          commit: commit.sha,
          ...(pullRequest ? { pullRequest } : {}),
          ...(promotionId ? { promotionId } : {}),
          ...(onboarding ? { onboarding } : {}),
        });
      }
    }
    return arrivals;
  }
}
