import { createApiRef } from '@backstage/core-plugin-api';
import {
  AutoDecision,
  Hold,
  Ladder,
  ProductRef,
  Promotion,
  PromotionRequest,
  PromotionResponse,
  StageHistoryEntry,
} from '@refplat/plugin-promotions-common';

/** Body of `POST /products/{team}/{product}/rollbacks`. */
export interface RollbackRequest {
  stage: string;
  /** Service → the earlier digest to write back into `stage`. */
  services: Record<string, string>;
}

/** Body of `POST /products/{team}/{product}/holds`. */
export interface HoldRequest {
  stage: string;
  service: string;
  reason: string;
}

/** One decision of the auto-promoter's latest run over a Product. */
export interface AutoPromotionRecord extends AutoDecision {
  runId: string;
  decidedAt: string;
}

/** One source commit between two digests of a service. */
export interface ChangeCommit {
  sha: string;
  message: string;
  author: string;
  url: string;
}

/** What a promotion would ship for one service. */
export interface ServiceChange {
  service: string;
  /** The digest in the lower stage: what a promotion would ship. */
  from?: string;
  /** The digest in the upper stage now. */
  to?: string;
  changed: boolean;
  /** The source commits between the two digests, where the Releases record them. */
  commits?: ChangeCommit[];
  compareUrl?: string;
  /** Why the commits cannot be shown, said plainly. */
  note?: string;
}

/** `GET /products/{team}/{product}/changes?from=&to=`. */
export interface StageChanges {
  fromStage: string;
  toStage: string;
  items: ServiceChange[];
}

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

export const promotionsApiRef = createApiRef<PromotionsApi>({
  id: 'plugin.promotions.service',
});
