import { ServiceUnavailableError } from '@backstage/errors';
import express from 'express';
import Router from 'express-promise-router';

/**
 * The plugin's routes while it has no configuration: every one answers 503
 * with the reason, which the cards show as it is.
 */
export function createNotConfiguredRouter(reason: string): express.Router {
  const router = Router();
  router.use(() => {
    throw new ServiceUnavailableError(reason);
  });
  return router;
}
