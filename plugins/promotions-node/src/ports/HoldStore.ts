import type { Hold, ProductRef } from '@refplat/plugin-promotions-common';

/**
 * Holds keep the auto-promoter (and promotions) out of a stage for a
 * service. At most one hold per (Product, stage, service) is live.
 *
 * @public
 */
export interface HoldStore {
  /** The Product's live holds, oldest first. */
  listLive(product: ProductRef): Promise<Hold[]>;
  /** Places a hold; placing one where one is live keeps the first (and answers it). */
  place(
    product: ProductRef,
    hold: { stage: string; service: string; reason: string; placedBy: string },
  ): Promise<Hold>;
  /** Lifts the live hold and answers it; throws a NotFoundError when there is none. */
  lift(product: ProductRef, stage: string, service: string, liftedBy: string): Promise<Hold>;
}
