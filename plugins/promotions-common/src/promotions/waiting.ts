import { Duration } from 'luxon';
import ms from 'ms';

/**
 * What a pipeline or a template may wait for after requesting a promotion:
 * its Release PR merged, or the stage running every promoted digest healthy.
 *
 * @public
 */
export type PromotionWaitTarget = 'merged' | 'healthy';

/**
 * Each wait target, for a CLI's choices or a schema's enum.
 *
 * @public
 */
export const PROMOTION_WAIT_TARGETS: readonly PromotionWaitTarget[] = ['merged', 'healthy'];

/**
 * Where a promotion stands for someone waiting on it.
 * - `waiting`: not there yet; look again later.
 * - `needs-stage`: merged; whether it runs healthy needs the stage's cells from the ladder.
 * - `reached`: the wait is over.
 * - `ended`: closed or failed, so it never gets there.
 *
 * @public
 */
export type PromotionProgress = 'waiting' | 'needs-stage' | 'reached' | 'ended';

/**
 * A stage's cell as far as waiting reads it; both the ladder and the
 * get-ladder action's compact view have these fields.
 *
 * @public
 */
export interface WaitedStageCell {
  /** The digest the stage releases; absent or null when it releases none. */
  digest?: string | null;
  /** The cell's health verdict; `healthy` ends a wait for `healthy`. */
  verdict: string;
}

/**
 * Whether a promotion someone waits on `until` has got there. For `healthy`
 * the stage must release each promoted digest and run it healthy: pass the
 * stage's cells (service → cell) once the answer is `needs-stage`.
 *
 * @public
 */
export function promotionProgress(
  promotion: { status: string; services: Record<string, string> },
  until: PromotionWaitTarget,
  stageCells?: Record<string, WaitedStageCell>,
): PromotionProgress {
  if (promotion.status === 'closed' || promotion.status === 'failed') return 'ended';
  if (promotion.status !== 'merged') return 'waiting';
  if (until === 'merged') return 'reached';
  if (!stageCells) return 'needs-stage';
  const runsHealthy = Object.entries(promotion.services).every(([service, digest]) => {
    const cell = stageCells[service];
    return cell?.digest === digest && cell.verdict === 'healthy';
  });
  return runsHealthy ? 'reached' : 'waiting';
}

/**
 * How long to wait, in milliseconds: an ISO 8601 duration (`PT15M`) or a
 * number with a unit (`500ms`, `90s`, `15m`, `1h`). Undefined for anything
 * else, including a bare number, whose unit a reader would have to guess.
 *
 * @public
 */
export function parseWaitTimeout(value: string): number | undefined {
  const text = value.trim();
  let milliseconds: number | undefined;
  if (/^P/i.test(text)) milliseconds = Duration.fromISO(text.toUpperCase()).toMillis();
  // ms answers undefined for what it cannot read.
  else if (/[a-z]$/i.test(text)) milliseconds = ms(text as ms.StringValue);
  return milliseconds !== undefined && Number.isFinite(milliseconds) && milliseconds > 0 ? milliseconds : undefined;
}
