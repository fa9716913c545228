import { BackstageCredentials, BackstageUserPrincipal } from '@backstage/backend-plugin-api';
import { ConflictError, NotAllowedError } from '@backstage/errors';
import { withdrawalProblem, withdrawnReason } from '@refplat/plugin-promotions-common';
import { PromotionChanges, PromotionRecord } from '../database/PromotionStore';
import { rejectedReason, rejectionProblem } from './approvalRules';
import { applyLifecycleEvent } from './PromotionLifecycle';
import { ApprovalServiceOptions } from './ApprovalService';
import { actorInMarkdown, isFleetBranch } from './pullRequestText';
import { NameOf } from '../service/ActorNames';
import { deleteBranchOrLeaveIt } from './mergeSettlement';

/** One way a person ends a promotion before it merged: what the record and the PR say. */
interface Closing {
  /** The lifecycle's event, and the audit trail's (the same word). */
  event: 'rejected' | 'withdrawn';
  /** What the promotion keeps: its status reason (and a rejection's who and why). */
  changes: Omit<PromotionChanges, 'status'>;
  /** The PR's closing comment. */
  comment: string;
  /** What it is called: "Too late to reject", "while it was being rejected", "before Alice rejected it". */
  verb: { base: 'reject' | 'withdraw'; past: 'rejected' | 'withdrawn'; preterite: 'rejected' | 'withdrew'; noun: 'rejection' | 'withdrawal' };
  /** Why it cannot end now, looking at the record as it is now. */
  problem: (current: PromotionRecord) => string | undefined;
}

/**
 * A person's end of a promotion before it merged: a release-approver's
 * "no" (reject) or its requester taking it back (withdraw). Closes the
 * promotion with their reason, then its pull request (with a comment naming
 * them and the reason) and branch. Like the Gate's closing, the record
 * changes first by compare-and-set, so a concurrent approval, merge or second
 * closing makes exactly one outcome; if GitHub fails after that, the
 * reconciler closes the PR nothing live owns.
 */
export class PromotionCloser {
  constructor(
    private readonly options: Omit<ApprovalServiceOptions, 'onChange'>,
  ) {}

  async reject(
    promotion: PromotionRecord,
    credentials: BackstageCredentials<BackstageUserPrincipal>,
    reason: string,
  ): Promise<PromotionRecord> {
    const rejecter = credentials.principal.userEntityRef;
    // The same who-may as approving: rejecting is the other answer to the same request.
    await this.options.rights.require(credentials, productOf(promotion), 'rejections');
    const problem = rejectionProblem(promotion);
    if (problem) throw new ConflictError(problem);
    // The record keeps who by ref; its reason, which people read, names them.
    const nameOf = await this.options.names.namesOf([rejecter, promotion.requestedBy]);
    return this.close(promotion, rejecter, {
      changes: { statusReason: rejectedReason(nameOf(rejecter), reason), rejection: { by: rejecter, reason } },
      event: 'rejected',
      comment: `Rejected by ${actorInMarkdown(rejecter, nameOf)} in Backstage (requested by ${actorInMarkdown(promotion.requestedBy, nameOf)}):\n\n> ${quoted(reason)}`,
      verb: { base: 'reject', past: 'rejected', preterite: 'rejected', noun: 'rejection' },
      problem: rejectionProblem,
    }, reason, nameOf);
  }

  /**
   * Its requester (or one of the Product's approvers) takes a live promotion
   * back: closed with their reason, its PR closed with a comment naming them.
   */
  async withdraw(
    promotion: PromotionRecord,
    credentials: BackstageCredentials<BackstageUserPrincipal>,
    reason: string,
  ): Promise<PromotionRecord> {
    const by = credentials.principal.userEntityRef;
    const caller = { userEntityRef: by, isApprover: await this.options.rights.isApproverOf(credentials, productOf(promotion)) };
    const problem = withdrawalProblem(promotion, caller);
    if (problem) {
      throw by !== promotion.requestedBy && !caller.isApprover ? new NotAllowedError(problem) : new ConflictError(problem);
    }
    const nameOf = await this.options.names.namesOf([by, promotion.requestedBy]);
    return this.close(promotion, by, {
      changes: { statusReason: withdrawnReason(nameOf(by), reason) },
      event: 'withdrawn',
      comment: `Withdrawn by ${actorInMarkdown(by, nameOf)} in Backstage (requested by ${actorInMarkdown(promotion.requestedBy, nameOf)}):\n\n> ${quoted(reason)}`,
      verb: { base: 'withdraw', past: 'withdrawn', preterite: 'withdrew', noun: 'withdrawal' },
      problem: current => withdrawalProblem(current, caller),
    }, reason, nameOf);
  }

  private async close(
    promotion: PromotionRecord,
    actor: string,
    closing: Closing,
    reason: string,
    nameOf: NameOf,
  ): Promise<PromotionRecord> {
    const { store } = this.options;
    const closed = await applyLifecycleEvent(store, promotion.id, closing.event, {
      changes: closing.changes,
      audit: { type: closing.event, actor, detail: reason },
    });
    if (!closed) {
      const current = (await store.get(promotion.id)) ?? promotion;
      throw new ConflictError(
        closing.problem(current) ?? `Promotion ${promotion.id} changed while it was being ${closing.verb.past}; look again`,
      );
    }
    const merged = await this.closeOnGitHub(closed, actor, closing, nameOf);
    if (merged) {
      throw new ConflictError(
        `Too late to ${closing.verb.base}: pull request #${merged.pullRequest.number} merged before the ${closing.verb.noun} took effect (${merged.statusReason})`,
      );
    }
    return closed;
  }

  /**
   * Closes the PR (a queued promotion has none yet), then looks once whether
   * it had merged already (the Gate merges approved promotions, people merge
   * by hand): if so the record says merged, and the caller is told. Answers
   * the merged record.
   */
  private async closeOnGitHub(
    promotion: PromotionRecord,
    actor: string,
    closing: Closing,
    nameOf: NameOf,
  ): Promise<PromotionRecord | undefined> {
    const { writer, store, logger } = this.options;
    const number = promotion.pullRequest.number;
    // A fleet PR stays open for its other Products: the Gate takes this one's file out.
    if (!number || isFleetBranch(promotion.branch)) return undefined;
    try {
      await writer.closePullRequest(number, closing.comment);
    } catch (error) {
      logger.warn(`Could not close PR #${number} (the reconciler closes it if still open): ${error}`);
    }
    const pr = await writer.getPullRequest(number).catch(error => {
      logger.warn(`Could not read PR #${number} after closing it: ${error}`);
      return undefined;
    });
    if (pr?.merged) {
      await writer
        .comment(number, `This pull request had merged before the ${closing.verb.noun} above took effect; it stands as merged.`)
        .catch(error => logger.warn(`Could not comment on PR #${number}: ${error}`));
      return applyLifecycleEvent(store, promotion.id, 'merged-before-closing', {
        changes: {
          statusReason: `Merged on GitHub${pr.mergedBy ? ` by ${pr.mergedBy}` : ''} before ${nameOf(actor)} ${closing.verb.preterite} it`,
          rejection: undefined,
        },
        audit: { type: 'merged', actor: pr.mergedBy ?? 'github', detail: pr.url },
      });
    }
    if (promotion.branch) {
      await deleteBranchOrLeaveIt({ writer, logger }, promotion.branch);
    }
    return undefined;
  }
}

const productOf = (promotion: PromotionRecord) => ({ team: promotion.team, product: promotion.product });

/** A reason as a Markdown quote, every line of it. */
const quoted = (reason: string) => reason.replace(/\n/g, '\n> ');
