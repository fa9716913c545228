import { LoggerService } from '@backstage/backend-plugin-api';
import type { DigestArrival } from '@refplat/plugin-promotions-common';
import { PromotionsConfig } from '../config';
import { GithubClient } from '../github/createOctokit';
import { toUpstreamError } from '../github/errors';
import { PlatformRepoReader } from '../github/PlatformRepoReader';
import { parseRelease } from '../releases/records';
import { DigestTimelineStore } from './DigestTimelineStore';
import { pullRequestOfCommit, releaseFileOf } from './releaseCommits';

interface BranchCommit {
  sha: string;
  parent?: string;
  message: string;
  /** When it landed on the branch: the committer's date (a merge's or squash's time). */
  at: string;
  files: Array<{ filename: string; status: string; sha: string }>;
}

/**
 * Reads the platform branch's new commits into per-digest timelines. From
 * the head the scan already knows, it walks first parents back to the last
 * commit read: one GET commits/{sha} per new commit (its changed files with
 * their blob shas, its time and message). A changed Release record's text
 * comes through the reader's blob cache, where the scan has put the head's
 * records; only a commit that was never the head when scanned costs a blob
 * read more per Release file it changed.
 */
export class DigestTimelineReader {
  private readonly branchKey: string;

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

  /** Reads every commit since the last one read; returns how many were read. */
  async readNewCommits(): Promise<number> {
    const { reader, store, config, logger } = this.options;
    const head = await reader.headCommit();
    const last = await store.cursor(this.branchKey);
    if (head === last) return 0;
    const commits: BranchCommit[] = [];
    for (let sha: string | undefined = head; sha && sha !== last; ) {
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
    // Oldest first: each commit's arrivals compare with the one before.
    for (const commit of commits.reverse()) {
      await store.recordCommit(this.branchKey, commit.sha, await this.arrivalsIn(commit));
    }
    return commits.length;
  }

  private async readCommit(sha: string): Promise<BranchCommit> {
    const { owner, repo } = this.options.config.platformRepo;
    try {
      const { data } = await this.options.octokit.rest.repos.getCommit({ owner, repo, ref: sha });
      return {
        sha: data.sha,
        parent: data.parents[0]?.sha,
        message: data.commit.message,
        at: data.commit.committer?.date ?? data.commit.author?.date ?? new Date().toISOString(),
        files: (data.files ?? []).map(f => ({ filename: f.filename, status: f.status, sha: f.sha ?? '' })),
      };
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
