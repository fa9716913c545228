import { Config, readDurationFromConfig } from '@backstage/config';
import { durationToMilliseconds } from '@backstage/types';

/**
 * Short enough that a change made on another replica (which this replica's
 * memo does not hear of) shows within a few seconds; long enough that many
 * viewers share one upstream read.
 */
const DEFAULT_CACHE_TTL_MS = 5_000;

/** `promotions.cacheTtl`: how long a branch-head check or an Application list is reused. */
export function readCacheTtlMs(root: Config): number {
  const key = 'promotions.cacheTtl';
  return root.has(key)
    ? durationToMilliseconds(readDurationFromConfig(root, { key }))
    : DEFAULT_CACHE_TTL_MS;
}
