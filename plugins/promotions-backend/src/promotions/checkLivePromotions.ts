import type { ProductRef, Promotion } from '@refplat/plugin-promotions-common';

/**
 * Has the Gate look at a Product's live promotions now rather than at its
 * next run: something they wait for (the stage below turning healthy) may
 * just have happened.
 */
export function liveProductPromotionsCheck(options: {
  livePromotions(product: ProductRef): Promise<Promotion[]>;
  /** The Gate's check of one promotion. */
  check(id: string): Promise<unknown>;
}): (product: ProductRef) => Promise<void> {
  return async product => {
    const live = await options.livePromotions(product);
    await Promise.all(live.map(promotion => options.check(promotion.id)));
  };
}
