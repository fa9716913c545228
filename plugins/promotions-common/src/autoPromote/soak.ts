import type { LadderStage } from '../ladder/types';

/**
 * The key of `AutoPromoteContext.healthySince`.
 *
 * @public
 */
export function healthySinceKey(stage: string, service: string, digest: string): string {
  return `${stage}/${service}/${digest}`;
}

/**
 * Seconds a digest must still stay healthy in `stage` before it may leave:
 * 0 when no soak is configured for the stage or the soak has elapsed; the
 * whole soak when it is not known since when the digest is healthy there.
 * Rounded up, so a soak that has not elapsed never reports 0.
 *
 * @public
 */
export function soakRemaining(
  stage: string,
  service: string,
  digest: string,
  /** As `AutoPromoteContext` has them: each stage's soak, the healthy-since times by {@link healthySinceKey}, and now. */
  context: { soakSeconds: Record<string, number>; healthySince: Record<string, string>; now: Date },
): number {
  const soak = context.soakSeconds[stage] ?? 0;
  if (!Number.isFinite(soak) || soak <= 0) return 0;
  const since = context.healthySince[healthySinceKey(stage, service, digest)];
  const sinceMs = since === undefined ? NaN : Date.parse(since);
  if (!Number.isFinite(sinceMs)) return soak;
  const elapsed = (context.now.getTime() - sinceMs) / 1000;
  // A time in the future (clock skew) counts as "just became healthy".
  const remaining = soak - Math.max(0, elapsed);
  return remaining <= 0 ? 0 : Math.min(soak, Math.ceil(remaining));
}

/**
 * Puts on each cell of `stage` since when its digest has been healthy there
 * (from `healthySince`, keyed by {@link healthySinceKey}) and, where the stage
 * soaks and the cell is healthy, the soak it still has to sit
 * ({@link soakRemaining}'s rule): the ladder's cells and a request's snapshot
 * read it the same way the auto-promoter decides on it.
 *
 * @public
 */
export function annotateSoak(stage: LadderStage, healthySince: Record<string, string>, now: Date): void {
  for (const [service, cell] of Object.entries(stage.services)) {
    cell.healthySince = cell.digest ? healthySince[healthySinceKey(stage.name, service, cell.digest)] : undefined;
    if (stage.soakSeconds && cell.healthy && cell.digest) {
      cell.soakRemainingSeconds = soakRemaining(stage.name, service, cell.digest, {
        soakSeconds: { [stage.name]: stage.soakSeconds },
        healthySince,
        now,
      });
    }
  }
}
