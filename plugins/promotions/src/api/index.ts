export { promotionsApiRef } from './PromotionsApi';
export type {
  AutoPromotionRecord,
  ChangeCommit,
  DeliveryMetricsResponse,
  MetricsScope,
  OverviewQuery,
  HoldRequest,
  PromotionsApi,
  RollbackRequest,
  ServiceChange,
  StageChanges,
} from './PromotionsApi';
export { PromotionsClient } from './PromotionsClient';
