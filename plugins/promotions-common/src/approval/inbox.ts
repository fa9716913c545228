import { approvalRole } from '../guards/incidents';
import type { Promotion, PromotionEvent, PromotionStatus } from '../promotions/types';
import type { ApprovalSource } from './approvalSource';
import { recordedApprovals } from './approvalPolicy';
import { quorumProgress } from './quorum';

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
 * it is awaiting approval, the caller is not its requester when approvers
 * must differ, has not approved its head yet (in either role), and it still
 * needs what their approval would count as (see approvalRole): a commander's
 * when one is missing and they are one, else a release-approver's while the
 * quorum is short.
 *
 * @public
 */
export function awaitedApprovalsFor(
  promotion: { status: PromotionStatus; requestedBy: string; headSha?: string },
  trail: Pick<PromotionEvent, 'type' | 'actor' | 'detail'>[],
  caller: InboxCaller,
  rules: { quorumNeeded: number; commanderNeeded: boolean; requireDistinctApprover: boolean },
): AwaitedApproval[] | undefined {
  if (promotion.status !== 'awaiting-approval') return undefined;
  if (rules.requireDistinctApprover && promotion.requestedBy === caller.userEntityRef) return undefined;
  const ofHead = trail.filter(event => event.detail !== undefined && event.detail === promotion.headSha);
  const approvedByCaller = ofHead.some(
    event => (event.type === 'approved' || event.type === 'incident-approved') && event.actor === caller.userEntityRef,
  );
  if (approvedByCaller) return undefined;

  const quorum = quorumProgress(recordedApprovals(ofHead), promotion.headSha ?? '', promotion.requestedBy, rules.quorumNeeded);
  const commanderApproved = ofHead.some(event => event.type === 'incident-approved');
  const awaiting: AwaitedApproval[] = [
    ...(quorum.met ? [] : ['approvers' as const]),
    ...(rules.commanderNeeded && !commanderApproved ? ['incident-commander' as const] : []),
  ];
  const role = approvalRole({
    commanderNeeded: rules.commanderNeeded,
    commanderApproved,
    isCommander: caller.isCommander,
    isReleaseApprover: caller.isApprover,
  });
  if (!role) return undefined;
  return awaiting.includes(role === 'incident-commander' ? 'incident-commander' : 'approvers') ? awaiting : undefined;
}
