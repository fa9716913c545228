import type { ArgoTime } from './types';

/**
 * Milliseconds since the epoch, or undefined for a missing or unparseable time.
 *
 * @public
 */
export function argoTimeMillis(
  value: ArgoTime | undefined | null,
): number | undefined {
  if (value === undefined || value === null) return undefined;
  // A Date may come from another realm (a YAML parser in a test VM), so no `instanceof`.
  const ms =
    typeof value === 'object' && typeof (value as Date).getTime === 'function'
      ? (value as Date).getTime()
      : Date.parse(String(value));
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * The time as an ISO 8601 string (`2021-07-15T21:08:55.000Z`), or undefined.
 *
 * @public
 */
export function argoTimeIso(
  value: ArgoTime | undefined | null,
): string | undefined {
  const ms = argoTimeMillis(value);
  return ms === undefined ? undefined : new Date(ms).toISOString();
}
