import { LoggerService } from '@backstage/backend-plugin-api';
import { ConflictError } from '@backstage/errors';
import { ApprovalPolicy, ProductRef, judgeOpening, quorumNeeded } from '@refplat/plugin-promotions-common';
import { PromotionsConfig } from '../config';
import { LIVE_STATUSES, PromotionRecord, PromotionStore } from '../database/PromotionStore';
import { Clock, PlatformRepoRateLimitedError, PlatformRepoUnansweredError, systemClock } from '@refplat/plugin-promotions-node';
import type { PlatformRepo, PlatformRepoFiles, PullRequestInfo } from '@refplat/plugin-promotions-node';
import { releasePath } from '../ladder/readProductRecords';
import { releaseAtRevision } from './releaseAtRevision';
import { setReleaseDigests } from '../releases/editRelease';
import { applyLifecycleEvent } from './PromotionLifecycle';
import { deleteBranchOrLeaveIt } from './mergeSettlement';
import { openingLeaseFromNow } from './openingLease';
import { ActorNames } from '../service/ActorNames';
import {
  actorInText,
  parseMarkers,
  pullRequestBody,
  pullRequestLabels,
  pullRequestMarkerPrefix,
  pullRequestTitle,
} from './pullRequestText';

export interface PromotionOpenerOptions {
  config: PromotionsConfig;
  store: PromotionStore;
  writer: PlatformRepo;
  logger: LoggerService;
  /**
   * Who may approve the Product's promotions and how many must, for the PR
   * description; `promotions.approval`'s approvers and quorum when not given.
   */
  approval?: (product: ProductRef) => Promise<ApprovalPolicy>;
  /** Link back to the product in Backstage, for the PR description. */
  entityUrl?: (product: ProductRef) => string;
  /** The PR and its commit name people, not entity refs. */
  names: ActorNames;
  /** When an opener's lease ended; the machine's clock when not given. */
  clock?: Clock;
  /**
   * The platform repo's files by commit, as the request read them (its tree
   * and blob caches): the target Release at the base revision comes from
   * there, with no read of its own when cached. Read from `writer` when not given.
   */
  files?: PlatformRepoFiles;
}

/**
 * Opens a recorded promotion's Release PR, and finishes the job of an
 * opener that died. The promotion (with its branch name and the opener's
 * lease) is recorded first; then the branch, the commit and the PR are
 * made; then the PR is recorded — only onto a promotion that is still live
 * and has none, so a PR nothing live can own is closed at once.
 */
export class PromotionOpener {
  constructor(private readonly options: PromotionOpenerOptions) {}

  /** Branch, commit, PR, record, labels. Throws (after failing the promotion) when it cannot. */
  async open(record: PromotionRecord, baseRevision: string, requiresApproval: boolean): Promise<PromotionRecord> {
    return (await this.openPullRequest(record, baseRevision, requiresApproval)).promotion;
  }

  /**
   * As open, answering the PR as GitHub answered its creation too: the
   * Gate's first look at it then needs no read of its own.
   */
  async openPullRequest(
    record: PromotionRecord,
    baseRevision: string,
    requiresApproval: boolean,
    /** The write queue's: a rate limit's refusal leaves the promotion to the caller, who queues it again. */
    options: { keepWhenRateLimited?: boolean } = {},
  ): Promise<{ promotion: PromotionRecord; pullRequest: PullRequestInfo }> {
    const { config, writer } = this.options;
    const product = { team: record.team, product: record.product };
    const branch = record.branch!;
    try {
      const path = releasePath(config, product, record.toStage);
      const current = await releaseAtRevision(this.options, path, baseRevision);
      const text = setReleaseDigests(current.text, record.services);
      const policy = (await this.options.approval?.(product)) ?? config.approval;
      const { approvers } = policy;
      const nameOf = await this.options.names.namesOf([record.requestedBy, ...approvers]);
      await writer.createBranch(branch, baseRevision);
      await this.renewLease(record);
      const headSha = await writer.commitFile({
        branch,
        path,
        text,
        blobSha: current.blobSha,
        message: `${pullRequestTitle(record)}\n\nRequested by ${actorInText(record.requestedBy, nameOf)}.`,
      });
      await this.renewLease(record);
      const pr = await writer.openPullRequest({
        branch,
        title: pullRequestTitle(record),
        body: pullRequestBody({
          ...record,
          previous: record.previousServices ?? {},
          requiresApproval,
          quorum: quorumNeeded(policy, record.toStage),
          bottomRung: config.stages[0] === record.toStage,
          approvers,
          entityUrl: this.options.entityUrl?.(product),
          nameOf,
        }),
      });
      const recorded = await this.record(record, pr, { actor: record.requestedBy, detail: pr.url, headSha });
      if (!recorded) {
        throw new ConflictError(
          `A newer request replaced this promotion into ${record.toStage} while its pull request was being opened; #${pr.number} is closed`,
        );
      }
      return { promotion: recorded, pullRequest: pr };
    } catch (error) {
      if (error instanceof ConflictError) throw error;
      if (options.keepWhenRateLimited && error instanceof PlatformRepoRateLimitedError) throw error;
      const current = await this.options.store.get(record.id);
      if (current && !LIVE_STATUSES.includes(current.status)) {
        // Replaced meanwhile: the Gate's sweep may already have deleted the
        // branch, which is what made GitHub refuse. Not a GitHub failure.
        await deleteBranchOrLeaveIt(this.options, branch);
        throw new ConflictError(
          current.statusReason?.startsWith('Superseded')
            ? `A newer request replaced this promotion into ${record.toStage} while its pull request was being opened`
            : `This promotion into ${record.toStage} ended (${current.status}) while its pull request was being opened: ${current.statusReason}`,
        );
      }
      if (error instanceof PlatformRepoUnansweredError) {
        // GitHub may have made the write it did not answer (the PR above all): failing would
        // leave that PR to nobody, and trying again could open a second one. The promotion keeps
        // its lease; once that ends, the reconciler adopts the PR by its marker or fails it.
        this.options.logger.warn(
          `Promotion ${record.id} into ${record.toStage} of ${record.team}/${record.product}: ${error.message}; it is reconciled from GitHub once its opener's lease ends`,
        );
        throw error;
      }
      await this.fail(record, `Could not open the Release PR: ${(error as Error).message}`);
      throw error;
    }
  }

  /**
   * Takes a promotion out of the write queue to open its PR now (its turn
   * came, or a person asked for the same promotion): the queue mark goes and
   * a lease is taken in one compare-and-set, so one opener has it. Undefined
   * when another opener took it first or it ended meanwhile.
   */
  async takeQueued(record: PromotionRecord): Promise<PromotionRecord | undefined> {
    return applyLifecycleEvent(this.options.store, record.id, 'taken-from-queue', {
      changes: { queuedAt: undefined, leaseExpiresAt: openingLeaseFromNow(this.options) },
    });
  }

  /**
   * After each step made on GitHub the lease runs from now again: a slow
   * GitHub does not make a working opener look stopped, and a stopped one is
   * taken over one short lease after its last step (PromotionQueue's task
   * looks every few seconds). Undone when the promotion ended meanwhile.
   */
  private async renewLease(record: PromotionRecord): Promise<void> {
    const renewed = await applyLifecycleEvent(this.options.store, record.id, 'opening-renewed', {
      changes: { leaseExpiresAt: openingLeaseFromNow(this.options) },
    });
    if (!renewed) throw new Error('its promotion is no longer being opened by this request');
  }

  /**
   * A promotion whose opener is gone (no PR recorded, lease ended): adopts
   * its PR through the body marker, or fails it and deletes its branch.
   * Does nothing while the lease runs.
   */
  async reconcileAbandoned(record: PromotionRecord, actor: string): Promise<void> {
    const now = (this.options.clock ?? systemClock).now();
    if (judgeOpening(record, now).state !== 'abandoned') return;
    const marker = pullRequestMarkerPrefix(record.team, record.product, record.toStage);
    // A fleet PR carries one marker per Product.
    const pr = (await this.options.writer.findOpenPullRequests(marker)).find(candidate =>
      parseMarkers(candidate.body).some(found => found.id === record.id),
    );
    if (pr) {
      // Its record does not name the PR: the request that opened it ended before saying so, or the
      // record was restored from the PR itself after the database lost it.
      this.options.logger.info(`Adopting PR #${pr.number} for promotion ${record.id}: its record did not name it yet`);
      await this.record(record, pr, {
        actor,
        detail: `adopted ${pr.url}: its record did not name it (the request that opened it ended first, or the record was restored from it)`,
      });
      return;
    }
    const reason =
      'The request opening its pull request stopped before it finished (its lease ran out and GitHub has no PR for it); request the promotion again';
    const failed = await applyLifecycleEvent(this.options.store, record.id, 'opening-abandoned', {
      expected: { leaseEndedBy: now.toISOString() },
      changes: { statusReason: reason },
      audit: { type: 'failed', actor, detail: reason },
    });
    if (failed && record.branch) await deleteBranchOrLeaveIt(this.options, record.branch);
  }

  /**
   * Records `pr` on the promotion if it is live and has no PR yet. When it
   * cannot be recorded and the promotion does not already hold that PR, the
   * PR is closed: nothing would ever look after it. Labels are best-effort.
   */
  private async record(
    record: PromotionRecord,
    pr: PullRequestInfo,
    how: { actor: string; detail: string; headSha?: string },
  ): Promise<PromotionRecord | undefined> {
    const { store, writer, logger } = this.options;
    const recorded = await applyLifecycleEvent(store, record.id, 'pull-request-opened', {
      changes: { pullRequest: { number: pr.number, url: pr.url }, branch: pr.headRef, headSha: how.headSha, leaseExpiresAt: undefined },
      audit: { type: 'pr-opened', actor: how.actor, detail: how.detail },
    });
    if (recorded) {
      const labels = pullRequestLabels(record, this.options.config.platformRepo.pullRequestLabels);
      if (labels.length) {
        await writer
          .addLabels(pr.number, labels)
          .catch(error => logger.warn(`Could not label PR #${pr.number}: ${error}`));
      }
      return recorded;
    }
    const current = await store.get(record.id);
    if (current && LIVE_STATUSES.includes(current.status) && current.pullRequest.number === pr.number) {
      return current;
    }
    const why = current?.statusReason ? `: ${current.statusReason}` : '';
    await writer
      .closePullRequest(pr.number, `Closed by the promotions plugin: its promotion is ${current?.status ?? 'gone'}${why}.`)
      .catch(error => logger.warn(`Could not close PR #${pr.number}, which nothing owns: ${error}`));
    await deleteBranchOrLeaveIt(this.options, pr.headRef);
    return undefined;
  }

  /** Fails the promotion and deletes its branch: a call that timed out may still have created it. */
  private async fail(record: PromotionRecord, reason: string) {
    this.options.logger.warn(`Promotion ${record.id}: ${reason}`);
    await applyLifecycleEvent(this.options.store, record.id, 'opening-failed', {
      changes: { statusReason: reason },
      audit: { type: 'failed', actor: 'promotions', detail: reason },
    });
    await deleteBranchOrLeaveIt(this.options, record.branch!);
  }
}
