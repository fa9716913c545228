import { PromotionStatus } from '@refplat/plugin-promotions-common';
import { PromotionRecord } from '../database/PromotionStore';

/** Who asks: their user ref and whether they are a release-approver at all. */
export interface ApprovalCaller {
  userEntityRef: string;
  isApprover: boolean;
}

/**
 * Whether a promotion waits for this caller's approval, which is what the
 * approvals inbox lists: awaiting approval, the caller a release-approver,
 * and not its requester when `requireDistinctApprover` (they could not
 * approve it, so it is not their work).
 */
export function awaitsApprovalFrom(
  promotion: Pick<PromotionRecord, 'status' | 'requestedBy'>,
  caller: ApprovalCaller,
  requireDistinctApprover: boolean,
): boolean {
  if (promotion.status !== 'awaiting-approval' || !caller.isApprover) return false;
  return !(requireDistinctApprover && promotion.requestedBy === caller.userEntityRef);
}

/** A rejection answers an approval request: before and after approving, until it merges. */
export const REJECTABLE_STATUSES: PromotionStatus[] = ['awaiting-approval', 'approved'];

/**
 * Why a release-approver cannot reject this promotion now, or undefined.
 * The requester may reject (withdraw) their own: closing ships nothing, so
 * it needs no second person, unlike approving.
 */
export function rejectionProblem(
  promotion: Pick<PromotionRecord, 'id' | 'status' | 'statusReason' | 'pullRequest'>,
): string | undefined {
  if (promotion.status === 'open') {
    return `Promotion ${promotion.id} does not wait for approval, so there is nothing to reject; close its pull request to stop it`;
  }
  if (!REJECTABLE_STATUSES.includes(promotion.status)) {
    return `Nothing to reject: promotion ${promotion.id} is ${promotion.status}${
      promotion.statusReason ? ` (${promotion.statusReason})` : ''
    }`;
  }
  if (!promotion.pullRequest.number) {
    return 'Its pull request is still being opened; reject it once it is open';
  }
  return undefined;
}

/** The reason the promotion and its pull request carry once rejected. */
export function rejectedReason(rejecter: string, reason: string): string {
  return `Rejected by ${rejecter}: ${reason}`;
}
