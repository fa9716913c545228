import { Config } from '@backstage/config';
import { readMilliseconds } from '../config';

/**
 * Short enough that a change made on another replica (which this replica's
 * memo does not hear of) shows within a few seconds; long enough that many
 * viewers share one upstream read.
 */
const DEFAULT_CACHE_TTL_MS = 5_000;

/** `promotions.cacheTtl`: how long a branch-head check or an Application list is reused. */
export function readCacheTtlMs(root: Config): number {
  return readMilliseconds(root, 'promotions.cacheTtl', DEFAULT_CACHE_TTL_MS);
}
