import { transition } from '@refplat/plugin-promotions-common';
import { PromotionRecord } from '../database/PromotionStore';

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
  // A rejection answers an approval request: before and after approving, until it merges.
  if ('refused' in transition(promotion.status, 'rejected')) {
    return `Nothing to reject: promotion ${promotion.id} is ${promotion.status}${
      promotion.statusReason ? ` (${promotion.statusReason})` : ''
    }`;
  }
  if (!promotion.pullRequest.number) {
    return 'Its pull request is still being opened; reject it once it is open';
  }
  return undefined;
}

/** The reason the promotion carries once rejected; `rejecter` is their name, not their ref. */
export function rejectedReason(rejecter: string, reason: string): string {
  return `Rejected by ${rejecter}: ${reason}`;
}
