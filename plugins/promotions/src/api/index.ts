export { promotionsApiRef } from './PromotionsApi';
export type {
  AutoPromotionRecord,
  ChangeCommit,
  HoldRequest,
  PromotionsApi,
  RollbackRequest,
  ServiceChange,
  StageChanges,
} from './PromotionsApi';
export { PromotionsClient } from './PromotionsClient';
