/**
 * What GitHub's write budget says now, as the backend reads it: writes left in the minute and
 * in the hour of GitHub's secondary limit, and how long until the next write may go.
 *
 * @public
 */
export interface WriteBudgetNow {
  remainingThisMinute: number;
  remainingThisHour: number;
  /** 0 when a write may go now. */
  nextOpeningInMs: number;
}

/**
 * Why the write queue's next pull request is not open yet, and when it opens: in its turn
 * (writes go now, one at a time), or when GitHub's minute or hourly write limit lets the next
 * write go.
 *
 * @public
 */
export type QueueOpening =
  | { waitingFor: 'turn' }
  | { waitingFor: 'github-minute-write-limit' | 'github-hourly-write-limit'; opensAt: string };

/**
 * When the write queue's next pull request opens, and why not now (issue 48: "a queued
 * promotion says when it will open and why"). Without a budget (none configured) it opens in
 * its turn.
 *
 * @public
 */
export function queueOpening(budget: WriteBudgetNow | undefined, now: Date): QueueOpening {
  if (!budget || budget.nextOpeningInMs <= 0) return { waitingFor: 'turn' };
  return {
    // The hour's limit is what holds writes for long: name it whenever the hour has none left.
    waitingFor: budget.remainingThisHour === 0 ? 'github-hourly-write-limit' : 'github-minute-write-limit',
    opensAt: new Date(now.getTime() + budget.nextOpeningInMs).toISOString(),
  };
}
