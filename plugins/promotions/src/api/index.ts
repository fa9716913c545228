export { promotionsApiRef } from './PromotionsApi';
export type {
  AutoPromotionRecord,
  HoldRequest,
  PromotionsApi,
  RollbackRequest,
} from './PromotionsApi';
export { PromotionsClient } from './PromotionsClient';
