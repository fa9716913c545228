import type { HeadApproval, PromotionApproval, PromotionEvent } from '../promotions/types';
import { recordedApprovals } from './approvalPolicy';
import { quorumProgress } from './quorum';

const ROLES: Partial<Record<PromotionEvent['type'], HeadApproval['role']>> = {
  approved: 'release-approver',
  'incident-approved': 'incident-commander',
};

/**
 * A promotion's approval state from its trail: the approvals of `headSha`
 * and how far they go towards the stage's quorum (`needed`). The requester's
 * own approval counts only where approvers need not differ from them
 * (`requireDistinctApprover: false`).
 *
 * @public
 */
export function promotionApproval(
  promotion: { headSha: string; requestedBy: string },
  events: Pick<PromotionEvent, 'type' | 'actor' | 'at' | 'detail'>[],
  needed: number,
  commanderNeeded: boolean,
  requireDistinctApprover = true,
): PromotionApproval {
  const { headSha, requestedBy } = promotion;
  const excluded = requireDistinctApprover ? requestedBy : undefined;
  const quorum = quorumProgress(recordedApprovals(events), headSha, excluded, needed);
  return {
    headSha,
    approvals: events.flatMap(event => {
      const role = ROLES[event.type];
      return role && event.detail === headSha ? [{ approver: event.actor, at: event.at, role }] : [];
    }),
    quorum: needed,
    quorumApprovers: quorum.approvers,
    progress: quorum.progress,
    quorumMet: quorum.met,
    commanderNeeded,
  };
}

/** Whether an incident commander approved the head. @public */
export function commanderApproved(approval: PromotionApproval): boolean {
  return approval.approvals.some(a => a.role === 'incident-commander');
}

/**
 * What the promotion still waits for, in words ("1 more approver and an
 * incident commander"); undefined when its approvals are complete.
 *
 * @public
 */
export function missingApprovals(approval: PromotionApproval): string | undefined {
  const more = approval.quorum - approval.quorumApprovers.length;
  const missing = [
    ...(more > 0 ? [`${more} more approver${more === 1 ? '' : 's'}`] : []),
    ...(approval.commanderNeeded && !commanderApproved(approval) ? ['an incident commander'] : []),
  ];
  return missing.length ? missing.join(' and ') : undefined;
}

/**
 * Why someone who may approve the Product's promotions may not approve this
 * one now because of their own part in it, or undefined: they requested it
 * (where approvers must differ), or they approved its current head already
 * (one approval per person and head; the backend answers another with 409).
 *
 * @public
 */
export function ownPartBarsApproval(
  promotion: { requestedBy: string; approval?: PromotionApproval },
  userEntityRef: string,
  requireDistinctApprover: boolean,
): string | undefined {
  if (requireDistinctApprover && promotion.requestedBy === userEntityRef) {
    return 'You requested this promotion: another release-approver must approve it';
  }
  const { approval } = promotion;
  if (!approval?.approvals.some(a => a.approver === userEntityRef)) return undefined;
  const missing = missingApprovals(approval);
  return `You approved this head already${missing ? `; waiting for ${missing}` : ''}`;
}
