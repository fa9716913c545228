export { promotionsApiRef } from './PromotionsApi';
export type { PromotionsApi } from './PromotionsApi';
export { PromotionsClient } from './PromotionsClient';
