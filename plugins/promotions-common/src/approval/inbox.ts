import { approvalRole } from '../guards/incidents';
import type { Promotion, PromotionApproval, PromotionStatus } from '../promotions/types';
import type { ApprovalSource } from './approvalSource';
import { commanderApproved, ownPartBarsApproval } from './promotionApproval';

/**
 * What a promotion awaiting approval still needs: release-approvers (its
 * quorum is not met), an incident commander (an open incident asks for one
 * and none approved its head), or both.
 *
 * @public
 */
export type AwaitedApproval = 'approvers' | 'incident-commander';

/**
 * One entry of `GET /approvals`: the promotion, what it still waits for, and
 * its source stage (absent for a rollback, or when the ladder could not be read).
 *
 * @public
 */
export interface ApprovalItem extends Promotion {
  /** What it still needs, whoever gives it. */
  awaiting: AwaitedApproval[];
  /** Its source stage's health and soak per Service (see approvalSource). */
  source?: ApprovalSource;
}

/** Who asks the inbox, as the approval rules see them. @public */
export interface InboxCaller {
  /** The caller's User entity ref. */
  userEntityRef: string;
  /** One of the Product's release-approvers. */
  isApprover: boolean;
  /** A member of `promotions.incidents.commanders`. */
  isCommander: boolean;
}

/**
 * What a promotion awaits, when it awaits this caller's approval (which is
 * what the approvals inbox lists); undefined when it does not. It does when
 * it is awaiting approval, the caller's own part does not bar them (see
 * ownPartBarsApproval: their request, or their approval of its head), and it still
 * needs what their approval would count as (see approvalRole): a commander's
 * when one is missing and they are one, else a release-approver's while the
 * quorum is short.
 *
 * @public
 */
export function awaitedApprovalsFor(
  promotion: { status: PromotionStatus; requestedBy: string; approval: PromotionApproval },
  caller: InboxCaller,
  requireDistinctApprover: boolean,
): AwaitedApproval[] | undefined {
  if (promotion.status !== 'awaiting-approval') return undefined;
  if (ownPartBarsApproval(promotion, caller.userEntityRef, requireDistinctApprover)) return undefined;
  const { approval } = promotion;
  const commanderDone = commanderApproved(approval);
  const awaiting: AwaitedApproval[] = [
    ...(approval.quorumMet ? [] : ['approvers' as const]),
    ...(approval.commanderNeeded && !commanderDone ? ['incident-commander' as const] : []),
  ];
  const role = approvalRole({
    commanderNeeded: approval.commanderNeeded,
    commanderApproved: commanderDone,
    isCommander: caller.isCommander,
    isReleaseApprover: caller.isApprover,
  });
  if (!role) return undefined;
  return awaiting.includes(role === 'incident-commander' ? 'incident-commander' : 'approvers') ? awaiting : undefined;
}
