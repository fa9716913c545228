import { createApiRef } from '@backstage/core-plugin-api';
import {
  ApprovalItem,
  AutoPromotionRecord,
  DeliveryMetricsResponse,
  Hold,
  HoldRequest,
  Ladder,
  LadderDetail,
  LadderServiceCell,
  OverviewCriteria,
  OverviewResponse,
  ProductRef,
  Promotion,
  PromotionRequest,
  PromotionResponse,
  RollbackRequest,
  StageChanges,
  StageHistoryEntry,
  StuckItem,
  WriteQueueState,
} from '@refplat/plugin-promotions-common';

// The routes' bodies and answers, generated from the backend's openapi.yaml into -common.
export type {
  AutoPromotionRecord,
  HoldRequest,
  RollbackRequest,
} from '@refplat/plugin-promotions-common';

/**
 * Which rows of the organisation's matrix to read (`GET /overview`); every
 * filter is applied by the backend.
 *
 * @public
 */
export interface OverviewQuery extends OverviewCriteria {
  /** The previous page's `nextCursor`. */
  cursor?: string;
  limit?: number;
}

/**
 * Whose delivery metrics to read: one Product, a team or the organisation.
 *
 * @public
 */
export type MetricsScope =
  | { kind: 'org' }
  | { kind: 'team'; team: string }
  | { kind: 'product'; product: ProductRef };

export type { DeliveryMetricsResponse } from '@refplat/plugin-promotions-common';

/** What a promotion would ship: the same shapes the backend answers. */
export type { ChangeCommit, ServiceChange, StageChanges } from '@refplat/plugin-promotions-common';

/**
 * The promotions backend's API, as the cards use it.
 *
 * @public
 */
export interface PromotionsApi {
  /**
   * The Product's ladder; with `detail: 'summary'` its cells leave out their checks,
   * checklist and diagnosis (a `brief` instead), which getLadderCell reads for one cell.
   */
  getLadder(product: ProductRef, options?: { detail?: LadderDetail }): Promise<Ladder>;
  /** One cell of the ladder in full, for a summary ladder's cell someone opens. */
  getLadderCell(product: ProductRef, stage: string, service: string): Promise<LadderServiceCell>;
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
  /**
   * Closes a live promotion and its PR, with the reason in a comment; its
   * requester or one of the Product's approvers.
   */
  withdrawPromotion(id: string, reason: string): Promise<Promotion>;
  /**
   * Every promotion awaiting the signed-in user's approval (as a release-approver or an
   * incident commander), oldest first, with what it awaits and its source stage.
   */
  listApprovals(): Promise<ApprovalItem[]>;
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
  /** One page of the organisation's matrix: Products as rows, stages as columns. */
  getOverview(query?: OverviewQuery): Promise<OverviewResponse>;
  /** Every diagnosed-stuck stage the caller may read. */
  listStuck(): Promise<StuckItem[]>;
  /** How many of the auto-promoter's promotions wait in the write queue for their PRs. */
  getWriteQueue(): Promise<WriteQueueState>;
  /** Delivery metrics (DORA) of a scope over the window [from, to). */
  getMetrics(scope: MetricsScope, window: { from: Date; to: Date }): Promise<DeliveryMetricsResponse>;
}

/**
 * The {@link PromotionsApi}; the plugin provides it in both frontend systems.
 *
 * @public
 */
export const promotionsApiRef = createApiRef<PromotionsApi>({
  id: 'plugin.promotions.service',
});
