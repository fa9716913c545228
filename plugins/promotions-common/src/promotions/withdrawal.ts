import { livePhase } from './lifecycle/promotionPhase';
import { transition } from './lifecycle/transition';
import { Promotion } from './types';

/**
 * Why `caller` cannot withdraw this promotion now, or undefined. Its
 * requester may withdraw it, and so may the Product's approvers (who could
 * reject it anyway): a request made by mistake need not wait for an
 * approver's "no". Only a live promotion, and one whose pull request is open
 * or that still waits in the write queue (nothing on GitHub to close yet).
 *
 * @public
 */
export function withdrawalProblem(
  promotion: Pick<Promotion, 'id' | 'status' | 'statusReason' | 'requestedBy' | 'pullRequest' | 'queuedAt'>,
  caller: { userEntityRef: string; isApprover: boolean },
): string | undefined {
  if ('refused' in transition(promotion.status, 'withdrawn')) {
    return `Nothing to withdraw: promotion ${promotion.id} is ${promotion.status}${
      promotion.statusReason ? ` (${promotion.statusReason})` : ''
    }`;
  }
  if (caller.userEntityRef !== promotion.requestedBy && !caller.isApprover) {
    return 'Only the person who requested it, or one of the Product’s approvers, may withdraw it';
  }
  if (livePhase(promotion) === 'opening') {
    return 'Its pull request is still being opened; withdraw it once it is open';
  }
  return undefined;
}

/** The reason a withdrawn promotion carries; `by` is their name, not their ref. @public */
export function withdrawnReason(by: string, reason: string): string {
  return `Withdrawn by ${by}: ${reason}`;
}
