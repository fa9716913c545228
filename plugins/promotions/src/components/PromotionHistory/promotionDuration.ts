import { Promotion, formatSeconds, isLivePromotion } from '@refplat/plugin-promotions-common';

/**
 * How long a promotion took from request to its end (merged, closed or
 * failed; its last update), or has been running so far.
 */
export function promotionDuration(promotion: Promotion, now: Date): string {
  const start = Date.parse(promotion.createdAt);
  const live = isLivePromotion(promotion.status);
  const end = live ? now.getTime() : Date.parse(promotion.updatedAt);
  if (Number.isNaN(start) || Number.isNaN(end)) return '—';
  const took = formatSeconds(Math.max(0, (end - start) / 1000));
  return live ? `${took} so far` : took;
}
