import { isLivePromotion } from '../livePromotion';
import type { Promotion } from '../types';

/**
 * Where a promotion is in its life, beyond its `status`: a live promotion
 * first has no PR (waiting in the write queue, or being opened under an
 * opener's lease), then has one. Derived from the record, never stored.
 *
 * @public
 */
export type PromotionPhase =
  /** Bulk work's promotion, waiting in the write queue for its turn to be opened. */
  | 'queued'
  /** No PR recorded and not queued: an opener holds (or held) its lease. */
  | 'opening'
  /** Its PR is recorded: reviewed, approved and merged on GitHub. */
  | 'pull-request-open'
  /** Merged, closed or failed. */
  | 'ended';

/**
 * The phase of a live promotion, from its PR (number 0 while none is
 * recorded) and its queue mark.
 *
 * @public
 */
export function livePhase(promotion: { pullRequest: { number: number }; queuedAt?: string }): Exclude<PromotionPhase, 'ended'> {
  if (promotion.pullRequest.number > 0) return 'pull-request-open';
  // An opener takes a queued promotion by clearing the mark and taking a lease, in one step.
  return promotion.queuedAt ? 'queued' : 'opening';
}

/**
 * The phase of a promotion, from its status, its PR and its queue mark.
 *
 * @public
 */
export function promotionPhase(promotion: Pick<Promotion, 'status' | 'pullRequest' | 'queuedAt'>): PromotionPhase {
  return isLivePromotion(promotion.status) ? livePhase(promotion) : 'ended';
}
