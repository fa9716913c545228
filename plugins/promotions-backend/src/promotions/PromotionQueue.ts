import { randomUUID } from 'node:crypto';
import { LoggerService } from '@backstage/backend-plugin-api';
import { WriteBudgetNow, WriteQueueState, judgeOpening, queueOpening } from '@refplat/plugin-promotions-common';
import { Clock, PlatformRepoRateLimitedError, PlatformRepoUnansweredError, systemClock } from '@refplat/plugin-promotions-node';
import type { PlatformRepoFiles, PullRequestInfo } from '@refplat/plugin-promotions-node';
import { PromotionsConfig } from '../config';
import { PromotionRecord, PromotionStore } from '../database/PromotionStore';
import { releasePath } from '../ladder/readProductRecords';
import { asBulkWork } from '../github/WriteBudget';
import { PromotionOpener } from './PromotionOpener';
import { applyLifecycleEvent } from './PromotionLifecycle';
import { branchName } from './pullRequestText';
import { recordWriteQueueDepth } from '../telemetry/promotionsMetrics';

/** The plugin's global scheduled task that drains the queue, one replica at a time. */
export const WRITE_QUEUE_TASK = 'promotions-write-queue';

/** The identity the queue acts as in a promotion's trail when it drops one. */
export const WRITE_QUEUE = 'plugin:promotions/write-queue';

/** What one drain did. */
export interface QueueDrain {
  opened: number;
  /** Left out: the target stage's Release changed while they waited. */
  dropped: number;
  /** GitHub refused their opening: the opener failed them. */
  failed: number;
  /** GitHub did not answer while they opened: the reconciler adopts their PRs, or fails them. */
  unanswered: number;
}

/**
 * The write queue of bulk work: the auto-promoter records its promotions
 * here (in the database, so a restart or another replica loses none) and
 * returns in seconds; the queue opens their PRs oldest first, one at a
 * time, as GitHub's write budget lets each write go. A PR opened in its
 * turn is built on the branch as it is then: a promotion whose target
 * Release changed while it waited is dropped (the auto-promoter decides
 * again), not opened to be closed as outdated.
 */
export class PromotionQueue {
  /** This process's drain, while one runs. */
  private running?: Promise<QueueDrain>;
  /** Something was queued while the drain ran: it lists the queue once more before it ends. */
  private lookAgain = false;

  constructor(
    private readonly options: {
      config: PromotionsConfig;
      store: PromotionStore;
      opener: PromotionOpener;
      files: PlatformRepoFiles;
      logger: LoggerService;
      /** A PR was opened: the Gate looks at it (with GitHub's answer to its creation). */
      onOpened?: (promotionId: string, pullRequest: PullRequestInfo) => void;
      /** GitHub's write budget now, where one is configured: when the next PR can open. */
      writeBudget?: () => WriteBudgetNow | undefined;
      clock?: Clock;
    },
  ) {}

  /** Where the queue stands, for the ladder and the org page. */
  async state(): Promise<WriteQueueState> {
    const queued = await this.queued();
    if (!queued.length) return { waiting: 0 };
    const now = (this.options.clock ?? systemClock).now();
    return { waiting: queued.length, oldestQueuedAt: queued[0].queuedAt, ...queueOpening(this.options.writeBudget?.(), now) };
  }

  /**
   * Opens the queued promotions' PRs until none is left or `signal` aborts
   * (after the PR in hand). One drain at a time in a process: a call while
   * one runs joins it, and it looks once more before it ends.
   */
  drain(signal?: AbortSignal): Promise<QueueDrain> {
    if (this.running) {
      this.lookAgain = true;
      return this.running;
    }
    // Bulk work by definition: its writes wait behind people's for the write budget.
    this.running = asBulkWork(() => this.drainAll(signal)).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async drainAll(signal?: AbortSignal): Promise<QueueDrain> {
    const done: QueueDrain = { opened: 0, dropped: 0, failed: 0, unanswered: 0 };
    while (!signal?.aborted) {
      this.lookAgain = false;
      const [next] = await this.queued();
      if (!next) {
        if (this.lookAgain) continue;
        break;
      }
      // Another replica or a person's request may take it first: then the next one.
      const taken = await this.options.opener.takeQueued(next);
      if (!taken) continue;
      const outcome = await this.open(taken, next.queuedAt!);
      // GitHub could not be read, or refused for its rate limit: the promotion is back in its
      // place, and the next drain (the scheduled task's, seconds later) goes on from it.
      if (outcome === 'requeued') break;
      done[outcome] += 1;
    }
    if (done.opened || done.dropped || done.failed || done.unanswered) {
      this.options.logger.info(
        `Write queue: ${done.opened} promotion PRs opened, ${done.dropped} dropped as outdated, ${done.failed} failed, ${done.unanswered} unanswered by GitHub`,
      );
    }
    return done;
  }

  /**
   * Oldest first; of those queued in the same millisecond, the upper rung
   * first, as the auto-promoter queues a Product's rungs (so that the lower
   * one's merge does not move the upper one's source on before it opens).
   * Its length is the queue's depth the metrics report: read here, where
   * the queue lists itself anyway, a collection costs no query.
   */
  private async queued(): Promise<PromotionRecord[]> {
    const now = (this.options.clock ?? systemClock).now();
    const rung = (p: PromotionRecord) => this.options.config.stages.indexOf(p.toStage);
    const queued = (await this.options.store.listLive())
      .filter(p => judgeOpening(p, now).state === 'queued')
      .sort((a, b) => a.queuedAt!.localeCompare(b.queuedAt!) || rung(b) - rung(a));
    recordWriteQueueDepth(queued.length);
    return queued;
  }

  private async open(promotion: PromotionRecord, queuedAt: string): Promise<keyof QueueDrain | 'requeued'> {
    const { files, opener, store, config, logger } = this.options;
    let revision: string;
    let index: Record<string, string>;
    try {
      revision = await files.headCommit();
      index = await files.fileIndex(revision);
    } catch (error) {
      logger.warn(`Write queue paused: could not read the platform repo's branch: ${error}`);
      await this.putBack(promotion, queuedAt);
      return 'requeued';
    }
    try {
      const path = releasePath(config, promotion, promotion.toStage);
      if (index[path] !== promotion.baseBlobSha) {
        const reason = `${promotion.toStage}'s Release record changed while the promotion waited in the write queue; the auto-promoter decides again`;
        await applyLifecycleEvent(store, promotion.id, 'dropped-from-queue', {
          changes: { statusReason: reason, leaseExpiresAt: undefined },
          audit: { type: 'closed', actor: WRITE_QUEUE, detail: reason },
        });
        return 'dropped';
      }
      const { promotion: opened, pullRequest } = await opener.openPullRequest(
        promotion,
        revision,
        promotion.status === 'awaiting-approval',
        { keepWhenRateLimited: true },
      );
      this.options.onOpened?.(opened.id, pullRequest);
      return 'opened';
    } catch (error) {
      if (error instanceof PlatformRepoRateLimitedError) {
        const wait = error.retryAfterSeconds === undefined ? '' : ` (GitHub asks to wait ${error.retryAfterSeconds} s)`;
        logger.warn(`Write queue paused: GitHub's rate limit refused opening promotion ${promotion.id}${wait}: ${error.message}`);
        // On a branch of its own next time: the one it may have created is the reconciler's to delete.
        await this.putBack(promotion, queuedAt, { branch: branchName({ ...promotion, id: randomUUID() }) });
        return 'requeued';
      }
      // The opener left it to the reconciler: the queue goes on.
      if (error instanceof PlatformRepoUnansweredError) return 'unanswered';
      // The opener failed the promotion (or a newer request replaced it): the queue goes on.
      logger.warn(`Write queue could not open promotion ${promotion.id}: ${error}`);
      return 'failed';
    }
  }

  /** Back in the queue at its place (`queuedAt`), the lease it was taken with let go. */
  private async putBack(promotion: PromotionRecord, queuedAt: string, changes: { branch?: string } = {}) {
    await applyLifecycleEvent(this.options.store, promotion.id, 'returned-to-queue', {
      changes: { queuedAt, leaseExpiresAt: undefined, ...changes },
    });
  }
}
