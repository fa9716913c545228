/**
 * Frontend plugin for promotion ladders: entity cards for Products (System)
 * and Services (Component), the approvals inbox page and the organisation's
 * promotions page (matrix, approvals, stuck list, delivery metrics).
 *
 * @packageDocumentation
 */
export {
  promotionsPlugin,
  EntityPromotionLadderCard,
  EntityPromotionHistoryCard,
  EntityServicePromotionsCard,
  PromotionsApprovalsPage,
  PromotionsPage,
  promotionsApprovalsRouteRef,
  promotionsRootRouteRef,
} from './plugin';
export { isPromotionsAvailable } from './entity';
export { promotionsApiRef, PromotionsClient } from './api';
export type { PromotionsApi } from './api';
