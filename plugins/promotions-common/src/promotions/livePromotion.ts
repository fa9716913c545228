import type { PromotionStatus } from './types';

/**
 * The statuses of a promotion still in flight: it holds its target stage (no
 * second promotion into it) until it is merged, closed or failed.
 *
 * @public
 */
export const LIVE_PROMOTION_STATUSES: readonly PromotionStatus[] = ['open', 'awaiting-approval', 'approved'];

/**
 * Whether a promotion is still in flight: one definition for the store, the
 * Gate, the checklist, the diagnosis and the UI.
 *
 * @public
 */
export function isLivePromotion(status: string): boolean {
  return (LIVE_PROMOTION_STATUSES as readonly string[]).includes(status);
}
