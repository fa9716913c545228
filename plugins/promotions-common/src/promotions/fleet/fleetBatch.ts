/**
 * Fleet mode's settings (`promotions.autoPromote.fleet`).
 *
 * @public
 */
export interface FleetConfig {
  enabled: boolean;
  /** The most Products in one Release PR. */
  maxProducts: number;
  /** `team`: one team's Products per PR; `none`: any. */
  groupBy: 'none' | 'team';
}

/**
 * What the batching rule reads of a queued promotion.
 *
 * @public
 */
export interface FleetCandidate {
  id: string;
  team: string;
  product: string;
  fromStage: string;
  toStage: string;
  kind?: 'promotion' | 'rollback';
  requestedBy: string;
  /** It waits for a release-approver: never batched. */
  requiresApproval: boolean;
}

/**
 * Whether a queued promotion may share a fleet PR: one the auto-promoter
 * asked for, up a rung that needs no approval. A person's request, a
 * rollback and anything waiting for an approver (prod) always get a PR of
 * their own.
 *
 * @public
 */
export function batchable(candidate: FleetCandidate, autoPromoter: string): boolean {
  return candidate.requestedBy === autoPromoter && (candidate.kind ?? 'promotion') === 'promotion' && !candidate.requiresApproval;
}

/**
 * The promotions that share a fleet PR with `first`, the queue's next
 * (first among them): those of `queue` (in queue order) climbing the same
 * rung, in `first`'s group, one per Product, up to `maxProducts`. Just
 * `first` when fleet mode is off or `first` may not be batched.
 *
 * @public
 */
export function fleetBatch<T extends FleetCandidate>(
  first: T,
  queue: T[],
  options: { config: FleetConfig; autoPromoter: string },
): T[] {
  const { config, autoPromoter } = options;
  if (!config.enabled || config.maxProducts < 2 || !batchable(first, autoPromoter)) return [first];
  const batch = [first];
  const products = new Set([`${first.team}/${first.product}`]);
  for (const candidate of queue) {
    if (batch.length >= config.maxProducts) break;
    const product = `${candidate.team}/${candidate.product}`;
    if (products.has(product) || !batchable(candidate, autoPromoter)) continue;
    if (candidate.fromStage !== first.fromStage || candidate.toStage !== first.toStage) continue;
    if (config.groupBy === 'team' && candidate.team !== first.team) continue;
    products.add(product);
    batch.push(candidate);
  }
  return batch;
}
