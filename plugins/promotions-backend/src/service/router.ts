import {
  HttpAuthService,
  LoggerService,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import { promotionsLadderReadPermission } from '@refplat/plugin-promotions-common';
import express from 'express';
import Router from 'express-promise-router';
import { LadderService } from '../ladder/LadderService';
import { authorizeProduct } from './authorize';
import { productFromParams } from './params';

export interface RouterOptions {
  httpAuth: HttpAuthService;
  permissions: PermissionsService;
  logger: LoggerService;
  ladderService: LadderService;
}

export async function createRouter(
  options: RouterOptions,
): Promise<express.Router> {
  const { httpAuth, permissions, ladderService } = options;
  const router = Router();
  router.use(express.json());

  router.get('/health', async (req, res) => {
    await httpAuth.credentials(req, { allow: ['user', 'service'] });
    res.json({ status: 'ok' });
  });

  router.get('/products/:team/:product/ladder', async (req, res) => {
    const credentials = await httpAuth.credentials(req, {
      allow: ['user', 'service'],
    });
    const product = productFromParams(req.params);
    await authorizeProduct(
      permissions,
      credentials,
      promotionsLadderReadPermission,
      product,
    );
    res.json(await ladderService.getLadder(product));
  });

  return router;
}
