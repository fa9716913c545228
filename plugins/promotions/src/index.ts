/**
 * Frontend plugin for promotion ladders: entity cards for Products (System)
 * and Services (Component).
 *
 * @packageDocumentation
 */
export {
  promotionsPlugin,
  EntityPromotionLadderCard,
  EntityPromotionHistoryCard,
  EntityServicePromotionsCard,
} from './plugin';
export { isPromotionsAvailable } from './entity';
export { promotionsApiRef, PromotionsClient } from './api';
export type { PromotionsApi } from './api';
