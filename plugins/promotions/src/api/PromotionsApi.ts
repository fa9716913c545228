import { createApiRef } from '@backstage/core-plugin-api';
import {
  AutoDecision,
  Hold,
  Ladder,
  ProductRef,
  Promotion,
  PromotionRequest,
  PromotionResponse,
  StageChanges,
  StageHistoryEntry,
} from '@refplat/plugin-promotions-common';

/**
 * Body of `POST /products/{team}/{product}/rollbacks`.
 *
 * @public
 */
export interface RollbackRequest {
  stage: string;
  /** Service → the earlier digest to write back into `stage`. */
  services: Record<string, string>;
}

/**
 * Body of `POST /products/{team}/{product}/holds`.
 *
 * @public
 */
export interface HoldRequest {
  stage: string;
  service: string;
  reason: string;
}

/**
 * One decision of the auto-promoter's latest run over a Product.
 *
 * @public
 */
export interface AutoPromotionRecord extends AutoDecision {
  runId: string;
  decidedAt: string;
}

/** What a promotion would ship: the same shapes the backend answers. */
export type { ChangeCommit, ServiceChange, StageChanges } from '@refplat/plugin-promotions-common';

/**
 * The promotions backend's API, as the cards use it.
 *
 * @public
 */
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
  /**
   * Closes a promotion awaiting approval (or approved, not yet merged) and
   * its PR, with the reason in a comment; release-approvers only.
   */
  rejectPromotion(id: string, reason: string): Promise<Promotion>;
  /** Every promotion awaiting the signed-in release-approver's approval, oldest first. */
  listApprovals(): Promise<Promotion[]>;
  /** What was released into a stage, newest first. */
  getStageHistory(
    product: ProductRef,
    stage: string,
  ): Promise<StageHistoryEntry[]>;
  /**
   * Opens a Release PR that writes earlier digests back into a stage, and
   * holds those services there so the auto-promoter does not undo it.
   */
  requestRollback(
    product: ProductRef,
    request: RollbackRequest,
  ): Promise<PromotionResponse>;
  /** The Product's live holds. */
  listHolds(product: ProductRef): Promise<Hold[]>;
  /** Freezes one service in one stage. */
  placeHold(product: ProductRef, request: HoldRequest): Promise<Hold>;
  /** Resumes one service in one stage; answers the lifted hold. */
  liftHold(product: ProductRef, stage: string, service: string): Promise<Hold>;
  /** The decisions of the auto-promoter's latest run over the Product. */
  listAutoPromotions(product: ProductRef): Promise<AutoPromotionRecord[]>;
  /** What a promotion from `from` to `to` would ship, with the source commits where known. */
  getChanges(product: ProductRef, from: string, to: string): Promise<StageChanges>;
}

/**
 * The {@link PromotionsApi}; the plugin provides it in both frontend systems.
 *
 * @public
 */
export const promotionsApiRef = createApiRef<PromotionsApi>({
  id: 'plugin.promotions.service',
});
