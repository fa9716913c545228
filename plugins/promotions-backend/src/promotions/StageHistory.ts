import { CacheService } from '@backstage/backend-plugin-api';
import { NotFoundError } from '@backstage/errors';
import {
  PartialTimeline,
  ProductRef,
  releaseChanges,
  ReleaseTimeline,
  StageHistoryEntry,
} from '@refplat/plugin-promotions-common';
import { PromotionsConfig } from '../config';
import { PromotionStore } from '../database/PromotionStore';
import type { PlatformRepo, PlatformRepoFiles } from '@refplat/plugin-promotions-node';
import { releasePath } from '../ladder/readProductRecords';
import { pullRequestOfCommit } from '../metrics/releaseCommits';
import { parseRelease } from '../releases/records';

const HISTORY_LENGTH = 20;
const IMMUTABLE_TTL_MS = 24 * 60 * 60 * 1000;

/** Where a stage's Release record has been: the digests it named, newest commit first. */
export interface ReleaseTimelines {
  timeline(product: ProductRef, stage: string): Promise<ReleaseTimeline>;
  /**
   * The same history read from its oldest end, a few versions at a time,
   * until `enough` says the rest cannot matter (bottomOrderSettled).
   */
  timelineUntil(product: ProductRef, stage: string, enough: (read: PartialTimeline) => boolean): Promise<PartialTimeline>;
}

/** A stage's history is the `git log` of its Release record. */
export class StageHistory implements ReleaseTimelines {
  constructor(
    private readonly options: {
      config: PromotionsConfig;
      writer: PlatformRepo;
      /**
       * The ladder's snapshot reader: the history is then read from the
       * head it knows, and the newest version is the file at that head.
       */
      files?: PlatformRepoFiles;
      store: PromotionStore;
      cache: CacheService;
    },
  ) {}

  async list(product: ProductRef, stage: string): Promise<StageHistoryEntry[]> {
    const [releases, promotions] = await Promise.all([
      this.releases(product, stage),
      this.options.store.listForProduct(product.team, product.product, 200),
    ]);
    return releases.slice(0, HISTORY_LENGTH).map(({ commit, services }, index) => {
      const prNumber = pullRequestOfCommit(commit.message);
      const promotion = promotions.find(p => p.pullRequest.number === prNumber);
      return {
        revision: commit.sha,
        author: commit.author,
        date: commit.date,
        message: commit.message.split('\n')[0],
        services,
        // Past the last commit read lies none: that one is the record's first.
        changes: releaseChanges(releases[index + 1]?.services, services),
        pullRequest: promotion?.pullRequest,
      };
    });
  }

  /**
   * The digests alone, every commit read: the auto-promoter's question needs
   * no pull requests, and sees as far back as a rollback may reach.
   */
  async timeline(product: ProductRef, stage: string): Promise<ReleaseTimeline> {
    return (await this.releases(product, stage)).map(release => release.services);
  }

  /**
   * Reads 1, then 2, 4, 8 more versions from the oldest: an ordinary build is
   * told by the first read or two, and 20 versions still take five rounds.
   */
  async timelineUntil(
    product: ProductRef,
    stage: string,
    enough: (read: PartialTimeline) => boolean,
  ): Promise<PartialTimeline> {
    const { path, commits, newest } = await this.commitsOf(product, stage);
    if (!commits.length) return { head: {}, oldest: [], unread: 0 };
    const read: PartialTimeline = {
      head: await this.servicesAt(path, commits[0].sha, newest),
      oldest: [],
      unread: commits.length - 1,
    };
    for (let batch = 1; !enough(read) && read.unread > 0; batch *= 2) {
      const next = commits.slice(Math.max(1, read.unread + 1 - batch), read.unread + 1);
      const versions = await Promise.all(next.map(commit => this.servicesAt(path, commit.sha)));
      read.oldest = [...versions, ...read.oldest];
      read.unread -= next.length;
    }
    return read;
  }

  /**
   * Whether a Service ran at a digest in a stage lately: in the history's
   * entries or the state the oldest one replaced (what reverting it writes).
   */
  async wasReleased(product: ProductRef, stage: string, service: string, digest: string): Promise<boolean> {
    const releases = await this.releases(product, stage);
    return releases.some(release => release.services[service] === digest);
  }

  /**
   * The Release record's last commits, newest first, each with the digests
   * it named: one more than the history shows, so its oldest entry's changes
   * are known.
   */
  private async releases(product: ProductRef, stage: string) {
    const { path, commits, newest } = await this.commitsOf(product, stage);
    return Promise.all(
      commits.map(async (commit, index) => ({
        commit,
        services: await this.servicesAt(path, commit.sha, index === 0 ? newest : undefined),
      })),
    );
  }

  /** The Release record's last commits, newest first, and its text at the head where the snapshot has it. */
  private async commitsOf(product: ProductRef, stage: string) {
    const { config, writer } = this.options;
    if (!config.stages.includes(stage)) {
      throw new NotFoundError(`Unknown stage '${stage}'`);
    }
    const path = releasePath(config, product, stage);
    const head = await this.options.files?.headCommit();
    const commits = await writer.listCommits(path, HISTORY_LENGTH + 1, head);
    // The newest commit that touched the file left it as it is at the head:
    // the snapshot has it, so a new version costs no read of its own.
    const newest = head ? await this.atHead(path, head).catch(() => undefined) : undefined;
    return { path, commits, newest };
  }

  /** The file's text at the snapshot's `head`; undefined when it has none there. */
  private async atHead(path: string, head: string): Promise<(() => Promise<string>) | undefined> {
    const files = this.options.files!;
    const blobSha = (await files.fileIndex(head))[path];
    return blobSha ? () => files.readBlob(blobSha) : undefined;
  }

  /**
   * The digests in the file at a commit; commits never change, so cache them.
   * `known` gives the file's text where the caller has it without a read.
   */
  private async servicesAt(path: string, sha: string, known?: () => Promise<string>): Promise<Record<string, string>> {
    const key = `history:${sha}:${path}`;
    const cached = await this.options.cache.get<Record<string, string>>(key);
    if (cached) return cached;
    let services: Record<string, string> = {};
    try {
      // A snapshot read that fails is not the file's absence: read it as before.
      const text = (await known?.().catch(() => undefined)) ?? (await this.options.writer.readFile(path, sha)).text;
      services = parseRelease(text).services;
    } catch {
      // deleted or unparseable at that commit: no digests to show
    }
    await this.options.cache.set(key, services, { ttl: IMMUTABLE_TTL_MS });
    return services;
  }
}
