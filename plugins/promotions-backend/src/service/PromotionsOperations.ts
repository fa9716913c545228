import {
  AuditorService,
  BackstageCredentials,
  BackstageServicePrincipal,
  BackstageUserPrincipal,
  PermissionsService,
  UserInfoService,
} from '@backstage/backend-plugin-api';
import { InputError, NotFoundError } from '@backstage/errors';
import { ResourcePermission } from '@backstage/plugin-permission-common';
import {
  HoldRequest,
  Ladder,
  LadderDetail,
  LadderServiceCell,
  PROMOTIONS_PRODUCT_RESOURCE_TYPE,
  ProductRef,
  PromotionRequest,
  ReasonRequest,
  RollbackRequest,
  StageChanges,
  formatProductRef,
  holdReason,
  promotionHoldPermission,
  promotionApprovePermission,
  promotionRequestPermission,
  promotionsLadderReadPermission,
} from '@refplat/plugin-promotions-common';
import express from 'express';
import { PromotionsConfig } from '../config';
import { AutoDecisionStore } from '../database/AutoDecisionStore';
import { HoldStore } from '../database/HoldStore';
import { PromotionStore } from '../database/PromotionStore';
import { RecentResults } from '../health/RecentResults';
import { ladderSummary } from '../ladder/ladderSummaries';
import { SharedLadders } from '../ladder/SharedLadders';
import { ApprovalRights } from '../promotions/ApprovalRights';
import { ApprovalService } from '../promotions/ApprovalService';
import { ApprovalsInbox } from '../promotions/ApprovalsInbox';
import { PromotionCloser } from '../promotions/PromotionCloser';
import { PromotionService } from '../promotions/PromotionService';
import { PromotionsBroadcaster } from '../promotions/PromotionsBroadcaster';
import { StageHistory } from '../promotions/StageHistory';
import { WhatChanged } from '../promotions/WhatChanged';
import { DeliveryMetricsService } from '../metrics/DeliveryMetricsService';
import { MetricsQuery } from '../metrics/metricsQuery';
import { AuditMeta, AuditedAction, auditing, promotionMeta } from './audit';
import { ProductAccessQuestion, ProductReadAccess, authorizeProduct, permittedProducts } from './authorize';
import { KnownProducts } from './KnownProducts';
import { ProductAccess } from './ProductAccess';
import { OverviewService } from './OverviewService';
import { OverviewQuery } from './overviewQuery';
import { ProductOwners } from './ProductOwners';
import { comparisonProblem, holdTargetProblem } from './stageChecks';

export type UserCredentials = BackstageCredentials<BackstageUserPrincipal>;
export type ReaderCredentials = BackstageCredentials<BackstageUserPrincipal | BackstageServicePrincipal>;

/**
 * Who asks for a change. Credentials are resolved inside the audit event, so
 * a refusal to authenticate is recorded like any other refusal; `request`
 * (over HTTP) lets the auditor record the actor, address and route.
 */
export interface Caller {
  credentials(): Promise<UserCredentials>;
  request?: express.Request;
  /** Event meta naming the actor where there is no request (a registered action). */
  auditMeta?: AuditMeta;
}

/**
 * The route's `{team, product}` (or an action's product split at '/'), names
 * as checked at the entrance: by the router's validator, or by the action (params.ts).
 */
export type ProductParams = Pick<ProductRef, 'team' | 'product'>;

export interface PromotionsOperationsOptions {
  config: PromotionsConfig;
  permissions: PermissionsService;
  userInfo: UserInfoService;
  /** Security-relevant actions go here as well as to the plugin's own trail. */
  auditor: AuditorService;
  /** Ladder views: one build shared by concurrent viewers of a Product. */
  sharedLadders: SharedLadders;
  /** `promotions.cacheTtl`: how long a caller's read permission on a Product is reused. */
  cacheTtlMs: number;
  promotionService: PromotionService;
  approvalService: ApprovalService;
  approvalRights: ApprovalRights;
  approvalsInbox: ApprovalsInbox;
  closer: PromotionCloser;
  holds: HoldStore;
  /** A promotion's audit trail. */
  store: PromotionStore;
  autoDecisions: AutoDecisionStore;
  stageHistory: StageHistory;
  deliveryMetrics: DeliveryMetricsService;
  /** GET /overview and GET /stuck: the readable Products' matrix rows, kept warm. */
  overview: OverviewService;
  broadcaster: PromotionsBroadcaster;
  whatChanged: WhatChanged;
  knownProducts: KnownProducts;
  owners: ProductOwners;
  /** `promotions.permissions.requireOwnership` (default true). */
  requireOwnership: boolean;
}

/** Who the permission policy decides for: the user, or the calling service. */
function principalKey(credentials: ReaderCredentials): string {
  const { principal } = credentials;
  return principal.type === 'user' ? principal.userEntityRef : `service:${principal.subject}`;
}

/**
 * The promotion capabilities with their checks (permission policy, ownership,
 * approval rules, audit), shared by the HTTP routes and the registered
 * actions so both refuse the same callers with the same errors. The
 * permission decisions of what they read and change are made here. What callers
 * send comes checked, once, at the entrance: against openapi.yaml by the
 * router's validator, or by the action (params.ts, requestBodies.ts).
 */
export class PromotionsOperations {
  private readonly access: ProductAccess;
  private readonly audited: ReturnType<typeof auditing>;
  // Each check is a loopback HTTP call to the permission backend, most of a warm view's cost.
  // An allowed read is reused for the TTL, like the data it guards; a denial is never reused,
  // so a viewer without permission is asked again (and refused) every time.
  private readonly readDecisions: RecentResults<void>;

  constructor(private readonly options: PromotionsOperationsOptions) {
    const { config } = options;
    this.access = new ProductAccess({
      userInfo: options.userInfo,
      owners: options.owners,
      approvers: product => options.approvalRights.approversOf(product),
      approvalStages: config.approval.stages,
      requireOwnership: options.requireOwnership,
    });
    this.audited = auditing(options.auditor);
    this.readDecisions = new RecentResults<void>(options.cacheTtlMs);
  }

  /** A Product the caller may read (403 otherwise); it may not exist. */
  private async readableProduct(credentials: ReaderCredentials, params: ProductParams): Promise<ProductRef> {
    const product = { team: params.team, product: params.product };
    await this.readDecisions.get(`${principalKey(credentials)} ${formatProductRef(product)}`, () =>
      authorizeProduct(this.options.permissions, credentials, promotionsLadderReadPermission, product),
    );
    return product;
  }

  /** A readable Product the platform repo knows (404 otherwise). */
  private async existingProduct(credentials: ReaderCredentials, params: ProductParams): Promise<ProductRef> {
    const product = await this.readableProduct(credentials, params);
    await this.options.knownProducts.require(product);
    return product;
  }

  /** The Product's live and recent promotions, newest first. */
  async promotions(credentials: ReaderCredentials, params: ProductParams) {
    return this.options.promotionService.listForProduct(await this.existingProduct(credentials, params));
  }

  async liveHolds(credentials: ReaderCredentials, params: ProductParams) {
    return this.options.holds.listLive(await this.existingProduct(credentials, params));
  }

  /** The auto-promoter's latest run's decisions for the Product. */
  async autoPromotions(credentials: ReaderCredentials, params: ProductParams) {
    return this.options.autoDecisions.latest(await this.existingProduct(credentials, params));
  }

  /** The stage's Release file history, newest first. */
  async stageHistory(credentials: ReaderCredentials, params: ProductParams & { stage: string }) {
    return this.options.stageHistory.list(await this.existingProduct(credentials, params), params.stage);
  }

  /** A promotion and its audit trail, when the caller may read its Product (asked afresh each time). */
  async promotion(credentials: ReaderCredentials, id: string) {
    const promotion = await this.options.promotionService.get(id);
    await authorizeProduct(this.options.permissions, credentials, promotionsLadderReadPermission, promotion);
    return { promotion, events: await this.options.store.listEvents(promotion.id) };
  }

  /** Delivery metrics of a Product, a team or the organisation: readable Products only. */
  async metrics(credentials: ReaderCredentials, query: MetricsQuery) {
    return this.options.deliveryMetrics.get(query, this.readAccess(credentials));
  }

  /** A page of the organisation's matrix: the readable Products' rows, filtered. */
  async overview(credentials: ReaderCredentials, query: OverviewQuery) {
    return this.options.overview.overview(credentials, query, this.readAccess(credentials));
  }

  /** Every diagnosed-stuck deployment of the readable Products, the longest stuck first. */
  async stuck(credentials: ReaderCredentials) {
    return this.options.overview.stuck(this.readAccess(credentials));
  }

  /** The Product's ladder: in full, or its summary form without each cell's details. */
  async ladder(credentials: ReaderCredentials, params: ProductParams, detail: LadderDetail = 'full'): Promise<Ladder> {
    const ladder = await this.options.sharedLadders.get(await this.readableProduct(credentials, params));
    return detail === 'summary' ? ladderSummary(ladder) : ladder;
  }

  /** One cell of the ladder in full, for the summary's reader who opens it (404 where the ladder has none). */
  async ladderCell(
    credentials: ReaderCredentials,
    params: ProductParams & { stage: string; service: string },
  ): Promise<LadderServiceCell> {
    const ladder = await this.ladder(credentials, params);
    const { stage, service } = params;
    const services = ladder.stages.find(candidate => candidate.name === stage)?.services;
    // Own properties only: a Service named like an Object method is no cell.
    if (!services || !Object.hasOwn(services, service)) {
      throw new NotFoundError(`No Service ${service} in stage ${stage} of ${formatProductRef(ladder)}`);
    }
    return services[service];
  }

  /** `from` and `to` are checked here, once: both stages of the ladder, `from` below `to`. */
  async changes(credentials: ReaderCredentials, params: ProductParams, from: string, to: string): Promise<StageChanges> {
    const product = await this.readableProduct(credentials, params);
    const problem = comparisonProblem(this.options.config.stages, from, to);
    if (problem) throw new InputError(problem);
    await this.options.knownProducts.require(product);
    return { fromStage: from, toStage: to, items: await this.options.whatChanged.between(product, from, to) };
  }

  async approvals(credentials: UserCredentials) {
    return this.options.approvalsInbox.list(credentials, this.question(credentials, promotionApprovePermission));
  }

  async requestPromotion(caller: Caller, params: ProductParams, request: PromotionRequest) {
    return this.audit(caller, 'promotion-request', async meta => {
      const { product, credentials, user } = await this.permittedUser(caller, params, promotionRequestPermission);
      meta.product = formatProductRef(product);
      meta.stage = request.toStage;
      await this.options.knownProducts.require(product);
      await this.access.requireChange(credentials, product, 'request-promotion', request.toStage);
      const override = request.override && { by: user, reason: request.override.reason.trim() };
      if (override) {
        meta.override = override;
        await this.requireApproving(credentials, product);
        await this.options.approvalService.requireOverrideRights(credentials, product);
      }
      const requested = await this.options.promotionService.request(product, request, user, { override });
      Object.assign(meta, promotionMeta(requested.promotion), { existing: requested.existing });
      // Only where guards run: without them the event is as it always was.
      if (requested.guards.length) {
        meta.guards = requested.guards.map(({ guard, verdict, reason }) => ({ guard, verdict, reason }));
      }
      return requested;
    });
  }

  async rollback(caller: Caller, params: ProductParams, request: RollbackRequest) {
    return this.audit(caller, 'promotion-rollback', async meta => {
      const { product, credentials, user } = await this.permittedUser(caller, params, promotionRequestPermission);
      meta.product = formatProductRef(product);
      Object.assign(meta, { stage: request.stage, services: request.services });
      await this.options.knownProducts.require(product);
      await this.access.requireChange(credentials, product, 'request-rollback', request.stage);
      const requested = await this.options.promotionService.rollback(product, request, user);
      Object.assign(meta, promotionMeta(requested.promotion), { existing: requested.existing });
      return requested;
    });
  }

  async placeHold(caller: Caller, params: ProductParams, request: HoldRequest) {
    const { product: heldProduct, hold } = await this.audit(caller, 'hold-place', async meta => {
      const { product, credentials, user } = await this.permittedUser(caller, params, promotionHoldPermission);
      meta.product = formatProductRef(product);
      const { stage, service } = request;
      const reason = holdReason(request.reason);
      Object.assign(meta, { stage, services: [service], reason });
      const problem = holdTargetProblem(await this.options.knownProducts.require(product), stage, service);
      if (problem) throw new InputError(problem);
      await this.access.requireChange(credentials, product, 'place-hold', stage);
      return { product, hold: await this.options.holds.place(product, { stage, service, reason, placedBy: user }) };
    });
    await this.options.broadcaster.productChanged(heldProduct, 'hold-placed');
    return hold;
  }

  async liftHold(caller: Caller, params: ProductParams & { stage: string; service: string }) {
    const { product: heldProduct, hold } = await this.audit(caller, 'hold-lift', async meta => {
      const { product, credentials, user } = await this.permittedUser(caller, params, promotionHoldPermission);
      meta.product = formatProductRef(product);
      const { stage, service } = params;
      Object.assign(meta, { stage, services: [service] });
      await this.options.knownProducts.require(product);
      await this.access.requireChange(credentials, product, 'lift-hold', stage);
      return { product, hold: await this.options.holds.lift(product, stage, service, user) };
    });
    await this.options.broadcaster.productChanged(heldProduct, 'hold-lifted');
    return hold;
  }

  async approve(caller: Caller, id: string) {
    return this.audit(caller, 'promotion-approve', async meta => {
      const credentials = await caller.credentials();
      meta.promotionId = id;
      const promotion = await this.options.promotionService.get(id);
      Object.assign(meta, promotionMeta(promotion));
      await this.requireApproving(credentials, promotion);
      return this.options.approvalService.approve(promotion, credentials);
    });
  }

  /** A release-approver lifts the guards' blocks from an open promotion, with a reason. */
  async override(caller: Caller, id: string, body: ReasonRequest) {
    return this.audit(caller, 'promotion-override', async meta => {
      const credentials = await caller.credentials();
      meta.promotionId = id;
      const reason = body.reason.trim();
      meta.reason = reason;
      const promotion = await this.options.promotionService.get(id);
      Object.assign(meta, promotionMeta(promotion));
      await this.requireApproving(credentials, promotion);
      await this.options.approvalService.requireOverrideRights(credentials, promotion);
      return this.options.promotionService.overrideGuards(promotion, {
        by: credentials.principal.userEntityRef,
        reason,
      });
    });
  }

  /** A release-approver's "no": the promotion and its PR closed with their reason. */
  async reject(caller: Caller, id: string, body: ReasonRequest) {
    return this.closeWithReason(caller, id, body, 'reject');
  }

  /** Its requester (or one of the Product's approvers) takes it back: closed with their reason. */
  async withdraw(caller: Caller, id: string, body: ReasonRequest) {
    return this.closeWithReason(caller, id, body, 'withdraw');
  }

  private closeWithReason(caller: Caller, id: string, body: ReasonRequest, closing: 'reject' | 'withdraw') {
    return this.audit(caller, closing === 'reject' ? 'promotion-reject' : 'promotion-withdraw', async meta => {
      const credentials = await caller.credentials();
      meta.promotionId = id;
      const reason = body.reason.trim();
      meta.reason = reason;
      const promotion = await this.options.promotionService.get(id);
      Object.assign(meta, promotionMeta(promotion));
      // Rejecting is the other answer to an approval request: the same permission.
      if (closing === 'reject') await this.requireApproving(credentials, promotion);
      return this.options.closer[closing](promotion, credentials, reason);
    });
  }

  /** The caller's read permission, for the views over many Products (asked afresh, batched). */
  private readAccess(credentials: ReaderCredentials): ProductReadAccess {
    return this.question(credentials, promotionsLadderReadPermission);
  }

  /** `permission` of the caller's on Products, for a service working over many: asked afresh, batched. */
  private question(
    credentials: ReaderCredentials,
    permission: ResourcePermission<typeof PROMOTIONS_PRODUCT_RESOURCE_TYPE>,
  ): ProductAccessQuestion {
    const { permissions } = this.options;
    return {
      require: product => authorizeProduct(permissions, credentials, permission, product),
      among: products => permittedProducts(permissions, credentials, permission, products),
    };
  }

  /**
   * 403 unless the permission policy allows the caller `promotions.promotion.approve` on the
   * Product: approving, rejecting and overriding guards ask it; membership of its approvers
   * is asked after, by ApprovalRights.
   */
  private requireApproving(credentials: ReaderCredentials, product: ProductRef): Promise<void> {
    return authorizeProduct(this.options.permissions, credentials, promotionApprovePermission, product);
  }

  private audit<T>(caller: Caller, eventId: AuditedAction, action: (meta: AuditMeta) => Promise<T>): Promise<T> {
    return this.audited(caller.request, eventId, action, caller.auditMeta);
  }

  /** A signed-in person allowed `permission` on the Product in `params`. */
  private async permittedUser(
    caller: Caller,
    params: ProductParams,
    permission: ResourcePermission<typeof PROMOTIONS_PRODUCT_RESOURCE_TYPE>,
  ): Promise<{ product: ProductRef; credentials: UserCredentials; user: string }> {
    const credentials = await caller.credentials();
    const product = { team: params.team, product: params.product };
    await authorizeProduct(this.options.permissions, credentials, permission, product);
    return { product, credentials, user: credentials.principal.userEntityRef };
  }
}
