import { LIVE_PROMOTION_STATUSES, PromotionStatus } from '@refplat/plugin-promotions-common';

// The port lives in -node, where its in-memory fake ships; the backend's modules import it from here as before.
export { OpenPromotionConflictError } from '@refplat/plugin-promotions-node';
export type {
  NewPromotion,
  PromotionChanges,
  PromotionEventInput,
  PromotionExpectation,
  PromotionRecord,
  PromotionStore,
  PublishedGuardVerdicts,
  PublishedVerdict,
  TransitionDecider,
} from '@refplat/plugin-promotions-node';

/** For the store's filters, which take a mutable list: the statuses of isLivePromotion. */
export const LIVE_STATUSES: PromotionStatus[] = [...LIVE_PROMOTION_STATUSES];
