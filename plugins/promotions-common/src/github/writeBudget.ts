/**
 * How many content-generating GitHub requests (writes) one identity may make:
 * GitHub's secondary limit allows "no more than 80 content-generating requests
 * per minute and no more than 500 content-generating requests per hour".
 * @public
 */
export interface WriteBudgetLimits {
  /** Writes in any 60 s. */
  perMinute: number;
  /** Writes in any hour. */
  perHour: number;
}

/** GitHub's documented secondary limit on writes. @public */
export const GITHUB_WRITE_BUDGET: Readonly<WriteBudgetLimits> = { perMinute: 80, perHour: 500 };

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * How long the next write must wait to stay within the budget, in sliding
 * windows (0: it may go now). `recentWrites` are the times (epoch ms) of the
 * writes already made, oldest first; those over an hour old do not count.
 * @public
 */
export function writeBudgetWaitMs(
  recentWrites: readonly number[],
  limits: WriteBudgetLimits,
  now: number,
): number {
  const waitFor = (windowMs: number, limit: number) => {
    const inWindow = recentWrites.filter(at => at > now - windowMs);
    if (inWindow.length < limit) return 0;
    // The write that must leave the window before one more fits in it.
    return inWindow[inWindow.length - limit] + windowMs - now;
  };
  return Math.max(waitFor(MINUTE_MS, limits.perMinute), waitFor(HOUR_MS, limits.perHour));
}
