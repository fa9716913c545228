import { randomUUID } from 'node:crypto';
import { LoggerService } from '@backstage/backend-plugin-api';
import { WriteBudgetNow, WriteQueueState, fleetBatch, judgeOpening, queueOpening } from '@refplat/plugin-promotions-common';
import { Clock, PlatformRepoRateLimitedError, PlatformRepoUnansweredError, systemClock } from '@refplat/plugin-promotions-node';
import type { PlatformRepoFiles, PullRequestInfo } from '@refplat/plugin-promotions-node';
import { PromotionsConfig } from '../config';
import { PromotionRecord, PromotionStore } from '../database/PromotionStore';
import { releasePath } from '../ladder/readProductRecords';
import { asBulkWork } from '../github/WriteBudget';
import { PromotionOpener } from './PromotionOpener';
import { applyLifecycleEvent } from './PromotionLifecycle';
import { branchName, fleetBranchName } from './pullRequestText';
import { FleetOpener } from './FleetOpener';
import { AUTO_PROMOTER } from './AutoPromoter';
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
      /** Fleet mode (promotions.autoPromote.fleet): the auto-promoter's promotions up one rung share a PR. */
      fleetOpener?: FleetOpener;
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
      const queue = await this.queued();
      const [next] = queue;
      if (!next) {
        if (this.lookAgain) continue;
        break;
      }
      const batch = this.fleetOf(next, queue);
      if (batch.length > 1) {
        const fleet = await this.openFleet(batch);
        for (const [outcome, count] of Object.entries(fleet.done) as Array<[keyof QueueDrain, number]>) done[outcome] += count;
        if (fleet.requeued) break;
        continue;
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
    const { opener, config, logger } = this.options;
    const branch = await this.branchNow();
    if (!branch) {
      await this.putBack(promotion, queuedAt);
      return 'requeued';
    }
    const { revision, index } = branch;
    try {
      const path = releasePath(config, promotion, promotion.toStage);
      if (index[path] !== promotion.baseBlobSha) {
        await this.drop(promotion);
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

  /** The queued promotions that share `next`'s PR: itself alone unless fleet mode batches it. */
  private fleetOf(next: PromotionRecord, queue: PromotionRecord[]): PromotionRecord[] {
    if (!this.options.fleetOpener) return [next];
    const candidate = (p: PromotionRecord) => ({ ...p, requiresApproval: p.status === 'awaiting-approval' });
    const batch = fleetBatch(candidate(next), queue.map(candidate), {
      config: this.options.config.autoPromote.fleet,
      autoPromoter: AUTO_PROMOTER,
    });
    const ids = new Set(batch.map(p => p.id));
    return queue.filter(p => ids.has(p.id));
  }

  /**
   * Opens one PR for the batch: the promotions another opener took first are left to it,
   * those whose target changed while they waited are dropped, the rest share the PR.
   */
  private async openFleet(batch: PromotionRecord[]): Promise<{ done: Partial<QueueDrain>; requeued?: boolean }> {
    const { config, logger } = this.options;
    const opener = this.options.fleetOpener!;
    const branch = await this.branchNow();
    if (!branch) return { done: {}, requeued: true };
    const { revision, index } = branch;
    const queuedAt = new Map(batch.map(p => [p.id, p.queuedAt!]));
    const taken = await opener.take(batch, fleetBranchName(batch[0].toStage, randomUUID()));
    const members: PromotionRecord[] = [];
    let dropped = 0;
    for (const promotion of taken) {
      if (index[releasePath(config, promotion, promotion.toStage)] === promotion.baseBlobSha) {
        members.push(promotion);
        continue;
      }
      await this.drop(promotion);
      dropped += 1;
    }
    if (!members.length) return { done: { dropped } };
    try {
      const { promotions, pullRequest } = await opener.open(members, revision);
      if (promotions.length) this.options.onOpened?.(promotions[0].id, pullRequest);
      return { done: { opened: promotions.length, dropped } };
    } catch (error) {
      if (error instanceof PlatformRepoRateLimitedError) {
        logger.warn(`Write queue paused: GitHub's rate limit refused opening a fleet PR of ${members.length} promotions: ${error.message}`);
        for (const member of members) {
          await this.putBack(member, queuedAt.get(member.id)!, { branch: branchName({ ...member, id: randomUUID() }) });
        }
        return { done: { dropped }, requeued: true };
      }
      if (error instanceof PlatformRepoUnansweredError) return { done: { unanswered: members.length, dropped } };
      logger.warn(`Write queue could not open a fleet PR: ${error}`);
      return { done: { failed: members.length, dropped } };
    }
  }

  /** The base branch's head and its files, as a PR opened now is built on; undefined (logged) when GitHub cannot be read. */
  private async branchNow(): Promise<{ revision: string; index: Record<string, string> } | undefined> {
    try {
      const revision = await this.options.files.headCommit();
      return { revision, index: await this.options.files.fileIndex(revision) };
    } catch (error) {
      this.options.logger.warn(`Write queue paused: could not read the platform repo's branch: ${error}`);
      return undefined;
    }
  }

  /** Out of the queue: its target stage's Release changed while it waited. */
  private async drop(promotion: PromotionRecord) {
    const reason = `${promotion.toStage}'s Release record changed while the promotion waited in the write queue; the auto-promoter decides again`;
    await applyLifecycleEvent(this.options.store, promotion.id, 'dropped-from-queue', {
      changes: { statusReason: reason, leaseExpiresAt: undefined },
      audit: { type: 'closed', actor: WRITE_QUEUE, detail: reason },
    });
  }

  /** Back in the queue at its place (`queuedAt`), the lease it was taken with let go. */
  private async putBack(promotion: PromotionRecord, queuedAt: string, changes: { branch?: string } = {}) {
    await applyLifecycleEvent(this.options.store, promotion.id, 'returned-to-queue', {
      changes: { queuedAt, leaseExpiresAt: undefined, ...changes },
    });
  }
}
