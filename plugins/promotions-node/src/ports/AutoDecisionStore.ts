import type { AutoDecision, ProductRef } from '@refplat/plugin-promotions-common';

/**
 * An auto-promoter decision as recorded, with the run that made it.
 *
 * @public
 */
export interface RecordedAutoDecision extends AutoDecision {
  runId: string;
  decidedAt: string;
}

/**
 * What the auto-promoter decided, per run, readable as "why didn't it climb?".
 *
 * @public
 */
export interface AutoDecisionStore {
  /** Records one run's decisions about one Product (nothing when there are none). */
  record(runId: string, product: ProductRef, decisions: AutoDecision[], at: Date): Promise<void>;
  /** The decisions of the latest run that looked at the Product, in the order recorded. */
  latest(product: ProductRef): Promise<RecordedAutoDecision[]>;
}
