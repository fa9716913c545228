import type { Provenance } from '@refplat/plugin-promotions-common';

/**
 * Verified provenance by (digest, policy). A digest is immutable, so once
 * its signature and provenance verified under a policy they stay verified:
 * the registry is never asked about it again. Only `verified` results are
 * kept; what is not verified yet (a signature CI has still to push, a
 * registry that was down) is asked again later. The Gate verifies again
 * before it merges; where that look no longer verifies (a signature deleted
 * or replaced), the result is forgotten, for every replica.
 *
 * @public
 */
export interface ProvenanceStore {
  get(digest: string, policy: string): Promise<Provenance | undefined>;
  put(digest: string, policy: string, provenance: Provenance, at: Date): Promise<void>;
  /** Drops a verified result that a later look did not confirm. */
  forget(digest: string, policy: string): Promise<void>;
}
