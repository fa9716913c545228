import { createApiRef } from '@backstage/core-plugin-api';
import {
  Ladder,
  ProductRef,
  Promotion,
  PromotionRequest,
  PromotionResponse,
  StageHistoryEntry,
} from '@refplat/plugin-promotions-common';

export interface PromotionsApi {
  getLadder(product: ProductRef): Promise<Ladder>;
  /**
   * Opens a Release PR that promotes into `request.toStage` from the stage
   * below. `existing` is true when the same promotion was already open.
   */
  requestPromotion(
    product: ProductRef,
    request: PromotionRequest,
  ): Promise<PromotionResponse>;
  /** Open and recent promotions of the Product, newest first. */
  listPromotions(product: ProductRef): Promise<Promotion[]>;
  approvePromotion(id: string): Promise<Promotion>;
  /** What was released into a stage, newest first. */
  getStageHistory(
    product: ProductRef,
    stage: string,
  ): Promise<StageHistoryEntry[]>;
}

export const promotionsApiRef = createApiRef<PromotionsApi>({
  id: 'plugin.promotions.service',
});
