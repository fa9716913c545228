import { promotionProgress, PromotionWaitTarget, WaitedStageCell } from './waiting';

/**
 * How a wait on a promotion ended, with the promotion as last read.
 * - `reached`: it got there.
 * - `ended`: it was closed or failed, so it never will.
 * - `timed-out`: the timeout passed first.
 *
 * @public
 */
export interface PromotionWaitOutcome<P> {
  /** Why the wait stopped. */
  outcome: 'reached' | 'ended' | 'timed-out';
  /** The promotion as last read: an ended one has its status reason. */
  promotion: P;
}

/**
 * What a wait reads through and how it waits between reads: the caller's
 * client does the I/O, so the loop is the same for the CLI and the
 * scaffolder action, and a test can fake the reads and the clock.
 *
 * @public
 */
export interface PromotionWaitOptions<P> {
  /** The promotion as requested; it is checked before the first read. */
  requested: P;
  /** What to wait for. */
  until: PromotionWaitTarget;
  /** How long to wait before the outcome is `timed-out`. */
  timeoutMs: number;
  /** How long to sleep between reads. */
  pollIntervalMs: number;
  /** Reads the promotion again. */
  readPromotion: (current: P) => Promise<P>;
  /** Reads the target stage's cells (service → cell), for `healthy` once the promotion is merged. */
  readStageCells: (current: P) => Promise<Record<string, WaitedStageCell>>;
  /** Waits between reads; a caller that can be cancelled rejects here. */
  sleep: (ms: number) => Promise<void>;
  /** The clock the timeout runs on. */
  now: () => number;
}

/**
 * Polls a requested promotion until it is `until` (the rule of
 * {@link promotionProgress}), it ends, or the timeout passes. A failed read
 * ends the wait with that error: neither caller can tell a passing failure
 * from a lasting one.
 *
 * @public
 */
export async function waitForPromotion<P extends { status: string; services: Record<string, string> }>(
  options: PromotionWaitOptions<P>,
): Promise<PromotionWaitOutcome<P>> {
  const { until, pollIntervalMs, readPromotion, readStageCells, sleep, now } = options;
  const deadline = now() + options.timeoutMs;
  let current = options.requested;
  for (;;) {
    let progress = promotionProgress(current, until);
    if (progress === 'needs-stage') progress = promotionProgress(current, until, await readStageCells(current));
    if (progress === 'reached' || progress === 'ended') return { outcome: progress, promotion: current };
    if (now() > deadline) return { outcome: 'timed-out', promotion: current };
    await sleep(pollIntervalMs);
    current = await readPromotion(current);
  }
}
