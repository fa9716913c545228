/**
 * Frontend plugin for promotion ladders: entity cards for Products (System)
 * and Services (Component), and the approvals inbox page.
 *
 * @packageDocumentation
 */
export {
  promotionsPlugin,
  EntityPromotionLadderCard,
  EntityPromotionHistoryCard,
  EntityServicePromotionsCard,
  PromotionsApprovalsPage,
  promotionsApprovalsRouteRef,
} from './plugin';
export { isPromotionsAvailable } from './entity';
export { promotionsApiRef, PromotionsClient } from './api';
export type { PromotionsApi } from './api';
