import {
  AuditorService,
  BackstageCredentials,
  BackstageServicePrincipal,
  BackstageUserPrincipal,
  HttpAuthService,
  LoggerService,
  PermissionsService,
  UserInfoService,
} from '@backstage/backend-plugin-api';
import { InputError, NotFoundError } from '@backstage/errors';
import { ResourcePermission } from '@backstage/plugin-permission-common';
import {
  PROMOTIONS_PRODUCT_RESOURCE_TYPE,
  ProductRef,
  formatProductRef,
  isValidName,
  promotionHoldPermission,
  promotionRequestPermission,
  promotionsLadderReadPermission,
} from '@refplat/plugin-promotions-common';
import express from 'express';
import Router from 'express-promise-router';
import { PromotionsConfig } from '../config';
import { AutoDecisionStore } from '../database/AutoDecisionStore';
import { HoldStore } from '../database/HoldStore';
import { PromotionStore } from '../database/PromotionStore';
import { SharedLadders } from '../ladder/SharedLadders';
import { RecentResults } from '../health/RecentResults';
import { ApprovalService } from '../promotions/ApprovalService';
import { ApprovalsInbox } from '../promotions/ApprovalsInbox';
import { PromotionRejecter } from '../promotions/PromotionRejecter';
import { PromotionService } from '../promotions/PromotionService';
import { PromotionsBroadcaster } from '../promotions/PromotionsBroadcaster';
import { StageHistory } from '../promotions/StageHistory';
import { WhatChanged } from '../promotions/WhatChanged';
import { DeliveryMetricsService } from '../metrics/DeliveryMetricsService';
import { parseMetricsQuery } from '../metrics/metricsQuery';
import { auditing, promotionMeta } from './audit';
import { authorizeProduct } from './authorize';
import { boundedQuote } from './boundedQuote';
import { jsonBody } from './jsonBody';
import { KnownProducts } from './KnownProducts';
import { OverviewModel } from './OverviewModel';
import { parseOverviewQuery } from './overviewQuery';
import { OverviewService } from './OverviewService';
import { nameFromParams, productFromParams } from './params';
import { ProductAccess } from './ProductAccess';
import { ProductOwners } from './ProductOwners';
import { holdBody, parseBody, promotionRequestBody, rejectBody, rollbackBody } from './requestBodies';
import { comparisonProblem, holdTargetProblem } from './stageChecks';

export interface RouterOptions {
  config: PromotionsConfig;
  httpAuth: HttpAuthService;
  permissions: PermissionsService;
  userInfo: UserInfoService;
  logger: LoggerService;
  /** Security-relevant actions go here as well as to the plugin's own trail. */
  auditor: AuditorService;
  /** Ladder views: one build shared by concurrent viewers of a Product. */
  sharedLadders: SharedLadders;
  /** `promotions.cacheTtl`: how long a caller's read permission on a Product is reused. */
  cacheTtlMs: number;
  promotionService: PromotionService;
  approvalService: ApprovalService;
  approvalsInbox: ApprovalsInbox;
  rejecter: PromotionRejecter;
  stageHistory: StageHistory;
  store: PromotionStore;
  holds: HoldStore;
  autoDecisions: AutoDecisionStore;
  broadcaster: PromotionsBroadcaster;
  whatChanged: WhatChanged;
  deliveryMetrics: DeliveryMetricsService;
  knownProducts: KnownProducts;
  /** Every Product's matrix row, kept warm for GET /overview and GET /stuck. */
  overviewModel: OverviewModel;
  owners: ProductOwners;
  /** `promotions.permissions.requireOwnership` (default true). */
  requireOwnership: boolean;
}

const ID_PATTERN = /^[0-9a-f-]{36}$/;

/** Who the permission policy decides for: the user, or the calling service. */
function principalKey(
  credentials: BackstageCredentials<BackstageUserPrincipal | BackstageServicePrincipal>,
): string {
  const { principal } = credentials;
  return principal.type === 'user' ? principal.userEntityRef : `service:${principal.subject}`;
}

export async function createRouter(options: RouterOptions): Promise<express.Router> {
  const {
    config,
    httpAuth,
    permissions,
    sharedLadders,
    promotionService,
    approvalService,
    approvalsInbox,
    rejecter,
    stageHistory,
    store,
    holds,
    autoDecisions,
    broadcaster,
    whatChanged,
    deliveryMetrics,
    knownProducts,
  } = options;
  const access = new ProductAccess({
    userInfo: options.userInfo,
    owners: options.owners,
    approvers: config.approval.approvers,
    approvalStages: config.approval.stages,
    requireOwnership: options.requireOwnership,
  });
  const overview = new OverviewService({
    model: options.overviewModel,
    stages: config.stages,
    permissions,
    userInfo: options.userInfo,
  });
  const audited = auditing(options.auditor);
  const router = Router();
  router.use(jsonBody());

  // Each check is a loopback HTTP call to the permission backend, most of a warm view's cost.
  // An allowed read is reused for the TTL, like the data it guards; a denial is never reused,
  // so a viewer without permission is asked again (and refused) every time.
  const readDecisions = new RecentResults<void>(options.cacheTtlMs);
  const readableProduct = async (req: express.Request) => {
    const credentials = await httpAuth.credentials(req, { allow: ['user', 'service'] });
    const product = productFromParams(req.params);
    await readDecisions.get(`${principalKey(credentials)} ${formatProductRef(product)}`, () =>
      authorizeProduct(permissions, credentials, promotionsLadderReadPermission, product),
    );
    return product;
  };

  /** A readable Product the platform repo knows (404 otherwise). */
  const existingProduct = async (req: express.Request): Promise<ProductRef> => {
    const product = await readableProduct(req);
    await knownProducts.require(product);
    return product;
  };

  /** A signed-in person allowed `permission` on the Product in the route. */
  const permittedUser = async (
    req: express.Request,
    permission: ResourcePermission<typeof PROMOTIONS_PRODUCT_RESOURCE_TYPE>,
  ): Promise<{
    product: ProductRef;
    credentials: BackstageCredentials<BackstageUserPrincipal>;
    user: string;
  }> => {
    const credentials = await httpAuth.credentials(req, { allow: ['user'] });
    const product = productFromParams(req.params);
    await authorizeProduct(permissions, credentials, permission, product);
    return { product, credentials, user: credentials.principal.userEntityRef };
  };

  router.get('/health', async (req, res) => {
    await httpAuth.credentials(req, { allow: ['user', 'service'] });
    res.json({ status: 'ok' });
  });

  router.get('/products/:team/:product/ladder', async (req, res) => {
    res.json(await sharedLadders.get(await readableProduct(req)));
  });

  router.get('/products/:team/:product/promotions', async (req, res) => {
    const product = await existingProduct(req);
    res.json({ items: await promotionService.listForProduct(product) });
  });

  router.post('/products/:team/:product/promotions', async (req, res) => {
    const outcome = await audited(req, 'promotion-request', async meta => {
      const { product, credentials, user } = await permittedUser(req, promotionRequestPermission);
      meta.product = formatProductRef(product);
      const body = parseBody(
        promotionRequestBody,
        req.body,
        '{toStage, services?: [<service>], override?: {reason}}',
      );
      meta.stage = body.toStage;
      await knownProducts.require(product);
      await access.requireChange(credentials, product, 'request-promotion', body.toStage);
      const override = body.override && { by: user, reason: body.override.reason };
      if (override) {
        meta.override = override;
        await approvalService.requireOverrideRights(credentials, product);
      }
      const requested = await promotionService.request(product, body, user, { override });
      Object.assign(meta, promotionMeta(requested.promotion), { existing: requested.existing });
      // Only where guards run: without them the event is as it always was.
      if (requested.guards.length) {
        meta.guards = requested.guards.map(({ guard, verdict, reason }) => ({ guard, verdict, reason }));
      }
      return requested;
    });
    res.status(outcome.existing ? 200 : 201).json(outcome);
  });

  router.post('/products/:team/:product/rollbacks', async (req, res) => {
    const outcome = await audited(req, 'promotion-rollback', async meta => {
      const { product, credentials, user } = await permittedUser(req, promotionRequestPermission);
      meta.product = formatProductRef(product);
      const body = parseBody(rollbackBody, req.body, '{stage, services: {<service>: <digest>}}');
      Object.assign(meta, { stage: body.stage, services: body.services });
      await knownProducts.require(product);
      await access.requireChange(credentials, product, 'request-rollback', body.stage);
      const requested = await promotionService.rollback(product, body, user);
      Object.assign(meta, promotionMeta(requested.promotion), { existing: requested.existing });
      return requested;
    });
    res.status(outcome.existing ? 200 : 201).json(outcome);
  });

  router.get('/products/:team/:product/holds', async (req, res) => {
    res.json({ items: await holds.listLive(await existingProduct(req)) });
  });

  router.post('/products/:team/:product/holds', async (req, res) => {
    const { product: heldProduct, hold } = await audited(req, 'hold-place', async meta => {
      const { product, credentials, user } = await permittedUser(req, promotionHoldPermission);
      meta.product = formatProductRef(product);
      const { stage, service, reason } = parseBody(holdBody, req.body, '{stage, service, reason}');
      Object.assign(meta, { stage, services: [service], reason });
      const problem = holdTargetProblem(await knownProducts.require(product), stage, service);
      if (problem) throw new InputError(problem);
      await access.requireChange(credentials, product, 'place-hold', stage);
      return { product, hold: await holds.place(product, { stage, service, reason, placedBy: user }) };
    });
    await broadcaster.productChanged(heldProduct, 'hold-placed');
    res.status(201).json({ hold });
  });

  router.delete('/products/:team/:product/holds/:stage/:service', async (req, res) => {
    const { product: heldProduct, hold } = await audited(req, 'hold-lift', async meta => {
      const { product, credentials, user } = await permittedUser(req, promotionHoldPermission);
      meta.product = formatProductRef(product);
      const stage = nameFromParams(req.params, 'stage');
      const service = nameFromParams(req.params, 'service');
      Object.assign(meta, { stage, services: [service] });
      await knownProducts.require(product);
      await access.requireChange(credentials, product, 'lift-hold', stage);
      return { product, hold: await holds.lift(product, stage, service, user) };
    });
    await broadcaster.productChanged(heldProduct, 'hold-lifted');
    res.json({ hold });
  });

  router.get('/products/:team/:product/auto-promotions', async (req, res) => {
    res.json({ items: await autoDecisions.latest(await existingProduct(req)) });
  });

  router.get('/products/:team/:product/changes', async (req, res) => {
    const product = await readableProduct(req);
    const { from, to } = req.query;
    if (!isValidName(from) || !isValidName(to)) {
      throw new InputError('Give the two stages to compare: ?from=<lower stage>&to=<upper stage>');
    }
    const problem = comparisonProblem(config.stages, from, to);
    if (problem) throw new InputError(problem);
    await knownProducts.require(product);
    res.json({ fromStage: from, toStage: to, items: await whatChanged.between(product, from, to) });
  });

  router.get('/products/:team/:product/stages/:stage/history', async (req, res) => {
    const product = await readableProduct(req);
    const stage = nameFromParams(req.params, 'stage');
    await knownProducts.require(product);
    res.json({ items: await stageHistory.list(product, stage) });
  });

  router.get('/promotions/:id', async (req, res) => {
    const credentials = await httpAuth.credentials(req, { allow: ['user', 'service'] });
    if (!ID_PATTERN.test(req.params.id)) throw new InputError('Invalid promotion id');
    const promotion = await promotionService.get(req.params.id);
    await authorizeProduct(permissions, credentials, promotionsLadderReadPermission, promotion);
    res.json({ promotion, events: await store.listEvents(promotion.id) });
  });

  router.post('/promotions/:id/approve', async (req, res) => {
    const approved = await audited(req, 'promotion-approve', async meta => {
      const credentials = await httpAuth.credentials(req, { allow: ['user'] });
      if (!ID_PATTERN.test(req.params.id)) throw new InputError('Invalid promotion id');
      meta.promotionId = req.params.id;
      const promotion = await promotionService.get(req.params.id);
      Object.assign(meta, promotionMeta(promotion));
      return approvalService.approve(promotion, credentials);
    });
    res.json({ promotion: approved });
  });

  router.post('/promotions/:id/reject', async (req, res) => {
    const rejected = await audited(req, 'promotion-reject', async meta => {
      const credentials = await httpAuth.credentials(req, { allow: ['user'] });
      if (!ID_PATTERN.test(req.params.id)) throw new InputError('Invalid promotion id');
      meta.promotionId = req.params.id;
      const { reason } = parseBody(rejectBody, req.body, '{reason}');
      meta.reason = reason;
      const promotion = await promotionService.get(req.params.id);
      Object.assign(meta, promotionMeta(promotion));
      return rejecter.reject(promotion, credentials, reason);
    });
    res.json({ promotion: rejected });
  });

  // Organisation-wide: what waits for the caller's approval, oldest first.
  router.get('/approvals', async (req, res) => {
    const credentials = await httpAuth.credentials(req, { allow: ['user'] });
    res.json({ items: await approvalsInbox.list(credentials) });
  });

  // Delivery metrics of a Product, a team or the organisation (readable Products only).
  router.get('/metrics', async (req, res) => {
    const credentials = await httpAuth.credentials(req, { allow: ['user', 'service'] });
    res.json(await deliveryMetrics.get(credentials, parseMetricsQuery(req.query, new Date())));
  });

  // The organisation's matrix: a page of the readable Products' rows, filtered.
  router.get('/overview', async (req, res) => {
    const credentials = await httpAuth.credentials(req, { allow: ['user', 'service'] });
    res.json(await overview.overview(credentials, parseOverviewQuery(req.query)));
  });

  // Every diagnosed-stuck deployment of the readable Products, the longest stuck first.
  router.get('/stuck', async (req, res) => {
    const credentials = await httpAuth.credentials(req, { allow: ['user', 'service'] });
    res.json(await overview.stuck(credentials));
  });

  // Any other path answers 404 in Backstage's error body (as every route's
  // errors do), not Express's HTML page, so clients parse it like the rest.
  router.use(req => {
    throw new NotFoundError(`No promotions route ${req.method} ${boundedQuote(req.path)}`);
  });

  return router;
}
