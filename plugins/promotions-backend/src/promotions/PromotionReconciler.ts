import { LoggerService } from '@backstage/backend-plugin-api';
import { disposePullRequest, graceElapsed, isBranchInUse, judgeOpening, requestedStatus } from '@refplat/plugin-promotions-common';
import { PromotionsConfig } from '../config';
import { OpenPromotionConflictError, PromotionRecord, PromotionStore } from '../database/PromotionStore';
import { Clock, systemClock } from '@refplat/plugin-promotions-node';
import type { PlatformRepo, PullRequestInfo } from '@refplat/plugin-promotions-node';
import { PromotionOpener } from './PromotionOpener';
import { BRANCH_PREFIX, PULL_REQUEST_MARKER, isFleetBranch, parseMarker, parseMarkers, parsePullRequestBody } from './pullRequestText';
import type { PullRequestBodyFacts } from './pullRequestText';
import { parseFleetPullRequestBody } from './fleetPullRequestText';

const RECONCILER_ACTOR = 'promotions-reconciler';

/**
 * The Gate's first step: makes GitHub agree with the database. Open plugin
 * PRs (found by their body marker) that no live promotion owns are closed,
 * those of a promotion whose opener died are adopted, those of a promotion
 * the database never had (it was lost: an in-memory database restarted) are
 * restored from the PR and never closed, and `promotions/*`
 * branches with no live promotion and no open PR are deleted once idle for
 * the grace period. Afterwards at most one plugin PR per target stage is open.
 */
export class PromotionReconciler {
  constructor(
    private readonly options: {
      config: PromotionsConfig;
      store: PromotionStore;
      writer: PlatformRepo;
      opener: PromotionOpener;
      logger: LoggerService;
      /** Grace periods and sweep intervals pass by it; the machine's clock when not given. */
      clock?: Clock;
    },
  ) {}

  private get clock(): Clock {
    return this.options.clock ?? systemClock;
  }

  private lastSweep = 0;

  /**
   * Sweeps at most once per the shorter of the opening lease and the branch
   * grace period: a sweep sooner could not act on anything new, and each one
   * costs two GitHub list requests (conditional: answered 304, not charged, when nothing changed).
   */
  async reconcile(now = this.clock.now().getTime()): Promise<void> {
    const { gate } = this.options.config;
    const intervalMs = Math.min(gate.openingLeaseSeconds, gate.orphanGraceSeconds) * 1000;
    if (this.lastSweep !== 0 && now - this.lastSweep < intervalMs) return;
    this.lastSweep = now;
    await this.sweep();
  }

  /**
   * Openings whose opener stopped (its lease ended and no PR is recorded):
   * their PRs adopted, or they fail, now. The write queue's task asks every
   * few seconds, so a replica killed mid-opening is healed one lease after
   * its last step on GitHub, not at the Gate's next run (minutes apart where
   * webhooks tell it of changes). Answers how many it finished.
   */
  async finishAbandonedOpenings(): Promise<number> {
    const now = this.clock.now();
    const abandoned = (await this.options.store.listLive()).filter(p => judgeOpening(p, now).state === 'abandoned');
    for (const promotion of abandoned) await this.options.opener.reconcileAbandoned(promotion, RECONCILER_ACTOR);
    return abandoned.length;
  }

  private async sweep(): Promise<void> {
    const { writer, store } = this.options;
    // GitHub first, the database after: anything listed on GitHub was
    // recorded before it was made, so its live promotion is in `live`.
    const branches = await writer.listBranches(BRANCH_PREFIX);
    const pulls = await writer.findOpenPullRequests(PULL_REQUEST_MARKER);
    const live = await store.listLive();
    const now = this.clock.now();
    const stillOpen = await this.reconcilePullRequests(pulls, live, now);
    await this.deleteIdleBranches(branches, stillOpen, live, now);
  }

  /** Closes or adopts PRs nothing live owns; returns the PRs left open. */
  private async reconcilePullRequests(
    pulls: PullRequestInfo[],
    live: PromotionRecord[],
    now: Date,
  ): Promise<PullRequestInfo[]> {
    const { writer, opener, logger } = this.options;
    const stillOpen: PullRequestInfo[] = [];
    for (const pr of pulls) {
      if (isFleetBranch(pr.headRef)) {
        if (await this.reconcileFleet(pr, live, now)) stillOpen.push(pr);
        continue;
      }
      const promotionId = parseMarker(pr.body).id;
      const recorded = await this.isRecorded(promotionId, live);
      const disposition = disposePullRequest({ number: pr.number, promotionId, headRef: pr.headRef, recorded }, live, now);
      if (disposition.action === 'restore') {
        await this.restore(pr, parsePullRequestBody(pr.body));
        stillOpen.push(pr);
        continue;
      }
      if (disposition.action === 'close') {
        logger.info(`Closing PR #${pr.number}: ${disposition.reason}`);
        try {
          await writer.closePullRequest(pr.number, `Closed by the promotions Gate: ${disposition.reason}.`);
          if (!isBranchInUse(pr.headRef, live, [])) await writer.deleteBranch(pr.headRef);
        } catch (error) {
          logger.warn(`Could not close PR #${pr.number}: ${error}`);
          stillOpen.push(pr);
        }
        continue;
      }
      if (disposition.action === 'adopt') {
        await opener.reconcileAbandoned(live.find(p => p.id === disposition.promotionId)!, RECONCILER_ACTOR);
      }
      stillOpen.push(pr);
    }
    this.checkOnePerStage(stillOpen);
    return stillOpen;
  }

  /**
   * A fleet PR (one marker per Product): each Product's promotion is adopted or restored as a
   * PR of its own would be; the PR is closed only when none of them is live or restorable.
   * Answers whether it stays open.
   */
  private async reconcileFleet(pr: PullRequestInfo, live: PromotionRecord[], now: Date): Promise<boolean> {
    const { writer, opener, logger } = this.options;
    let owned = false;
    for (const { id } of parseMarkers(pr.body)) {
      const recorded = await this.isRecorded(id, live);
      const disposition = disposePullRequest({ number: pr.number, promotionId: id, headRef: pr.headRef, recorded }, live, now);
      if (disposition.action === 'close') continue;
      owned = true;
      if (disposition.action === 'restore') {
        await this.restore(pr, parseFleetPullRequestBody(pr.body).find(facts => facts.id === id));
      } else if (disposition.action === 'adopt') {
        await opener.reconcileAbandoned(live.find(p => p.id === disposition.promotionId)!, RECONCILER_ACTOR);
      }
    }
    if (owned) return true;
    logger.info(`Closing fleet PR #${pr.number}: no live promotion owns any of its Products`);
    try {
      await writer.closePullRequest(pr.number, 'Closed by the promotions Gate: no live promotion owns any of its Products.');
      if (!isBranchInUse(pr.headRef, live, [])) await writer.deleteBranch(pr.headRef);
      return false;
    } catch (error) {
      logger.warn(`Could not close PR #${pr.number}: ${error}`);
      return true;
    }
  }

  /** Whether the database has the marker's promotion, live or ended (one read, only for a PR no live one owns). */
  private async isRecorded(promotionId: string | undefined, live: PromotionRecord[]): Promise<boolean> {
    if (!promotionId || live.some(promotion => promotion.id === promotionId)) return true;
    return (await this.options.store.get(promotionId)) !== undefined;
  }

  /**
   * Rebuilds a promotion the database lost from its open PR (body, branch and head), so that
   * it can still be approved and merged. Its approvals are not on GitHub and must be given
   * again; the Gate verifies the PR's content before it trusts the head. A PR whose body cannot
   * be read back, or whose stage another live promotion holds, is left open and reported.
   */
  private async restore(pr: PullRequestInfo, facts: PullRequestBodyFacts | undefined): Promise<void> {
    const { store, opener, config, logger } = this.options;
    if (!facts) {
      logger.warn(
        `PR #${pr.number} carries the promotions marker of a promotion this database does not have, but its body cannot be read back into one; left open for a person to merge or close`,
      );
      return;
    }
    try {
      const { record } = await store.insertLive(
        {
          ...facts,
          status: requestedStatus(config.approval.stages.includes(facts.toStage)),
          branch: pr.headRef,
        },
        RECONCILER_ACTOR,
      );
      logger.warn(
        `Restored promotion ${record.id} (${facts.team}/${facts.product} into ${facts.toStage}) from PR #${pr.number}: the database did not have it (was it in memory and restarted?); approvals given before must be given again`,
      );
      await opener.reconcileAbandoned(record, RECONCILER_ACTOR);
    } catch (error) {
      if (!(error instanceof OpenPromotionConflictError)) throw error;
      logger.warn(
        `PR #${pr.number} carries the marker of a promotion this database does not have, and promotion ${error.existing.id} holds ${facts.toStage}; left open`,
      );
    }
  }

  /** The invariant the steps above keep; a breach is a bug worth an error in the log. */
  private checkOnePerStage(open: PullRequestInfo[]) {
    const byStage = new Map<string, number[]>();
    for (const pr of open) {
      const keys = parseMarkers(pr.body).map(marker => marker.key);
      for (const key of keys.length ? keys : ['?']) byStage.set(key, [...(byStage.get(key) ?? []), pr.number]);
    }
    for (const [stage, numbers] of byStage) {
      if (numbers.length > 1) {
        this.options.logger.error(`More than one open promotion PR into ${stage}: ${numbers.map(n => `#${n}`).join(', ')}`);
      }
    }
  }

  private async deleteIdleBranches(
    branches: Array<{ name: string; sha: string }>,
    openPulls: PullRequestInfo[],
    live: PromotionRecord[],
    now: Date,
  ) {
    const { writer, store, config, logger } = this.options;
    for (const branch of branches) {
      if (isBranchInUse(branch.name, live, openPulls)) continue;
      try {
        // Idle since its promotion last changed (ended), else since its last commit.
        const owner = await store.findByBranch(branch.name);
        const idleSince = owner?.updatedAt ?? (await writer.commitDate(branch.sha));
        if (!graceElapsed(idleSince, now, config.gate.orphanGraceSeconds * 1000)) continue;
        logger.info(`Deleting branch ${branch.name}: no live promotion or open PR has used it since ${idleSince}`);
        await writer.deleteBranch(branch.name);
      } catch (error) {
        logger.warn(`Could not clean up branch ${branch.name}: ${error}`);
      }
    }
  }
}
