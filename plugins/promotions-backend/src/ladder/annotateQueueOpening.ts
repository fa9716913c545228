import { Ladder, WriteBudgetNow, judgeOpening, queueOpening } from '@refplat/plugin-promotions-common';

/**
 * Each promotion of the ladder that waits in the write queue says why its PR is not open yet,
 * and when GitHub's write limit lets the next write go (issue 48: waiting is visible).
 */
export function annotateQueueOpening(ladder: Ladder, budget: () => WriteBudgetNow | undefined, now: Date): void {
  const queued = ladder.promotions.filter(promotion => judgeOpening(promotion, now).state === 'queued');
  // Most views have nothing queued: the budget is read only for a ladder that does.
  if (!queued.length) return;
  const opening = queueOpening(budget(), now);
  for (const promotion of queued) promotion.queueOpening = opening;
}
