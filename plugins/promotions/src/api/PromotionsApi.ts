import { createApiRef } from '@backstage/core-plugin-api';
import { Ladder, ProductRef } from '@refplat/plugin-promotions-common';

export interface PromotionsApi {
  getLadder(product: ProductRef): Promise<Ladder>;
}

export const promotionsApiRef = createApiRef<PromotionsApi>({
  id: 'plugin.promotions.service',
});
