import { Ladder, WriteBudgetNow, judgeOpening, queueOpening } from '@refplat/plugin-promotions-common';

/**
 * Each promotion of the ladder that waits in the write queue says why its PR is not open yet,
 * and when GitHub's write limit lets the next write go (issue 48: waiting is visible).
 */
export function annotateQueueOpening(ladder: Ladder, budget: WriteBudgetNow | undefined, now: Date): void {
  const opening = queueOpening(budget, now);
  for (const promotion of ladder.promotions) {
    if (judgeOpening(promotion, now).state === 'queued') promotion.queueOpening = opening;
  }
}
