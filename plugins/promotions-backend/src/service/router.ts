import {
  HttpAuthService,
  LoggerService,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import { InputError } from '@backstage/errors';
import { ResourcePermission } from '@backstage/plugin-permission-common';
import {
  PROMOTIONS_PRODUCT_RESOURCE_TYPE,
  isValidName,
  promotionHoldPermission,
  promotionRequestPermission,
  promotionsLadderReadPermission,
} from '@refplat/plugin-promotions-common';
import { AutoDecisionStore } from '../database/AutoDecisionStore';
import { HoldStore } from '../database/HoldStore';
import { PromotionsBroadcaster } from '../promotions/PromotionsBroadcaster';
import { WhatChanged } from '../promotions/WhatChanged';
import express from 'express';
import Router from 'express-promise-router';
import { LadderService } from '../ladder/LadderService';
import { ApprovalService } from '../promotions/ApprovalService';
import { PromotionService } from '../promotions/PromotionService';
import { StageHistory } from '../promotions/StageHistory';
import { PromotionStore } from '../database/PromotionStore';
import { authorizeProduct } from './authorize';
import { productFromParams } from './params';

export interface RouterOptions {
  httpAuth: HttpAuthService;
  permissions: PermissionsService;
  logger: LoggerService;
  ladderService: LadderService;
  promotionService: PromotionService;
  approvalService: ApprovalService;
  stageHistory: StageHistory;
  store: PromotionStore;
  holds: HoldStore;
  autoDecisions: AutoDecisionStore;
  broadcaster: PromotionsBroadcaster;
  whatChanged: WhatChanged;
}

function stageAndService(params: Record<string, string>, body?: Record<string, unknown>) {
  const stage = body?.stage ?? params.stage;
  const service = body?.service ?? params.service;
  if (!isValidName(stage)) throw new InputError(`Invalid stage ${JSON.stringify(stage)}`);
  if (!isValidName(service)) throw new InputError(`Invalid service ${JSON.stringify(service)}`);
  return { stage, service };
}

const ID_PATTERN = /^[0-9a-f-]{36}$/;

export async function createRouter(options: RouterOptions): Promise<express.Router> {
  const {
    httpAuth,
    permissions,
    ladderService,
    promotionService,
    approvalService,
    stageHistory,
    store,
    holds,
    autoDecisions,
    broadcaster,
    whatChanged,
  } = options;
  const router = Router();
  router.use(express.json());

  const readableProduct = async (req: express.Request) => {
    const credentials = await httpAuth.credentials(req, { allow: ['user', 'service'] });
    const product = productFromParams(req.params);
    await authorizeProduct(permissions, credentials, promotionsLadderReadPermission, product);
    return product;
  };

  /** A signed-in person allowed `permission` on the Product in the route. */
  const permittedUser = async (
    req: express.Request,
    permission: ResourcePermission<typeof PROMOTIONS_PRODUCT_RESOURCE_TYPE>,
  ) => {
    const credentials = await httpAuth.credentials(req, { allow: ['user'] });
    const product = productFromParams(req.params);
    await authorizeProduct(permissions, credentials, permission, product);
    return { product, user: credentials.principal.userEntityRef };
  };

  router.get('/health', async (req, res) => {
    await httpAuth.credentials(req, { allow: ['user', 'service'] });
    res.json({ status: 'ok' });
  });

  router.get('/products/:team/:product/ladder', async (req, res) => {
    res.json(await ladderService.getLadder(await readableProduct(req)));
  });

  router.get('/products/:team/:product/promotions', async (req, res) => {
    const product = await readableProduct(req);
    res.json({ items: await promotionService.listForProduct(product) });
  });

  router.post('/products/:team/:product/promotions', async (req, res) => {
    const { product, user } = await permittedUser(req, promotionRequestPermission);
    const outcome = await promotionService.request(product, req.body, user);
    res.status(outcome.existing ? 200 : 201).json(outcome);
  });

  router.post('/products/:team/:product/rollbacks', async (req, res) => {
    const { product, user } = await permittedUser(req, promotionRequestPermission);
    const outcome = await promotionService.rollback(product, req.body, user);
    res.status(outcome.existing ? 200 : 201).json(outcome);
  });

  router.get('/products/:team/:product/holds', async (req, res) => {
    res.json({ items: await holds.listLive(await readableProduct(req)) });
  });

  router.post('/products/:team/:product/holds', async (req, res) => {
    const { product, user } = await permittedUser(req, promotionHoldPermission);
    const { stage, service } = stageAndService(req.params, req.body);
    const reason = typeof req.body?.reason === 'string' ? req.body.reason.trim() : '';
    if (!reason) throw new InputError('A hold needs a reason people will read on the ladder');
    const hold = await holds.place(product, {
      stage,
      service,
      reason: reason.slice(0, 500),
      placedBy: user,
    });
    await broadcaster.productChanged(product, 'hold-placed');
    res.status(201).json({ hold });
  });

  router.delete('/products/:team/:product/holds/:stage/:service', async (req, res) => {
    const { product, user } = await permittedUser(req, promotionHoldPermission);
    const { stage, service } = stageAndService(req.params);
    const hold = await holds.lift(product, stage, service, user);
    await broadcaster.productChanged(product, 'hold-lifted');
    res.json({ hold });
  });

  router.get('/products/:team/:product/auto-promotions', async (req, res) => {
    res.json({ items: await autoDecisions.latest(await readableProduct(req)) });
  });

  router.get('/products/:team/:product/changes', async (req, res) => {
    const product = await readableProduct(req);
    const { from, to } = req.query;
    if (!isValidName(from) || !isValidName(to)) {
      throw new InputError('Give the two stages to compare: ?from=<lower stage>&to=<upper stage>');
    }
    res.json({ fromStage: from, toStage: to, items: await whatChanged.between(product, from, to) });
  });

  router.get('/products/:team/:product/stages/:stage/history', async (req, res) => {
    const product = await readableProduct(req);
    res.json({ items: await stageHistory.list(product, req.params.stage) });
  });

  router.get('/promotions/:id', async (req, res) => {
    const credentials = await httpAuth.credentials(req, { allow: ['user', 'service'] });
    if (!ID_PATTERN.test(req.params.id)) throw new InputError('Invalid promotion id');
    const promotion = await promotionService.get(req.params.id);
    await authorizeProduct(permissions, credentials, promotionsLadderReadPermission, promotion);
    res.json({ promotion, events: await store.listEvents(promotion.id) });
  });

  router.post('/promotions/:id/approve', async (req, res) => {
    const credentials = await httpAuth.credentials(req, { allow: ['user'] });
    if (!ID_PATTERN.test(req.params.id)) throw new InputError('Invalid promotion id');
    const promotion = await promotionService.get(req.params.id);
    res.json({ promotion: await approvalService.approve(promotion, credentials) });
  });

  return router;
}
