import type { ProductRef } from '@refplat/plugin-promotions-common';

export interface ProductHealthChangedOptions {
  /** Forgets the Product's remembered Application lists (the coalescing health source). */
  healthSource?: { forgetProduct(product: ProductRef): void };
  /** Forgets the remembered head of the platform repo's branch. */
  repo: { forgetHead(): void };
  /** Tells viewers and the Product's cached ladders and rows (a `health` change signal). */
  productChanged(product: ProductRef): Promise<void>;
  /** Has the Gate look at the Product's live promotions now. */
  checkLivePromotions(product: ProductRef): Promise<void>;
  /** Tells the Product's owners of a stall the change shows (its ladder, built again, to StuckNotifier). */
  notifyStuck?(product: ProductRef): Promise<void>;
}

/**
 * What the plugin does when the health stream says a Product's Applications
 * changed: everyone reads them again, paired with the branch head that
 * caused the change, and its waiting promotions are looked at at once.
 */
export class ProductHealthChanged {
  constructor(private readonly options: ProductHealthChangedOptions) {}

  async handle(product: ProductRef): Promise<void> {
    const { healthSource, repo, productChanged, checkLivePromotions, notifyStuck } = this.options;
    healthSource?.forgetProduct(product);
    // An Application mostly changes because a Release did (the digest is injected from it):
    // the ladder must pair the new state with the branch head that caused it, not a
    // remembered older one. One conditional request, a 304 when the head did not move.
    repo.forgetHead();
    await productChanged(product);
    // The stage below turning healthy is what a waiting promotion waits for: check it
    // now rather than at the Gate's next run.
    await checkLivePromotions(product);
    // A stall such as a Degraded Application shows at the event, not at the next sweep.
    await notifyStuck?.(product);
  }
}
