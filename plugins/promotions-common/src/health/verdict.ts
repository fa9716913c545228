/**
 * Reality versus intent for one service at one stage.
 * - `healthy`: every check holds;
 * - `progressing`: nothing has failed, but something is still moving (sync, canary, refresh);
 * - `unknown`: something could not be read, so nothing can be said (never healthy);
 * - `unhealthy`: a check failed for good (Degraded, aborted, wrong digest on a settled app).
 *
 * @public
 */
export type HealthVerdict = 'healthy' | 'progressing' | 'unhealthy' | 'unknown';

/**
 * From least to most severe; a combined verdict is the most severe one.
 *
 * @public
 */
export const HEALTH_VERDICT_SEVERITY: Readonly<Record<HealthVerdict, number>> =
  {
    healthy: 0,
    progressing: 1,
    unknown: 2,
    unhealthy: 3,
  };

/**
 * The most severe verdict; `unknown` for none.
 *
 * @public
 */
export function worstVerdict(verdicts: Iterable<HealthVerdict>): HealthVerdict {
  let worst: HealthVerdict | undefined;
  for (const verdict of verdicts) {
    if (
      worst === undefined ||
      HEALTH_VERDICT_SEVERITY[verdict] > HEALTH_VERDICT_SEVERITY[worst]
    ) {
      worst = verdict;
    }
  }
  return worst ?? 'unknown';
}
