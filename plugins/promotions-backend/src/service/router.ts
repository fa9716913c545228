import { HttpAuthService } from '@backstage/backend-plugin-api';
import { NotFoundError } from '@backstage/errors';
import express from 'express';
import { IncidentService } from '../incidents/IncidentService';
import { PromotionQueue } from '../promotions/PromotionQueue';
import { parseMetricsQuery } from '../metrics/metricsQuery';
import { createOpenApiRouter } from '../schema/openapi/generated';
import { boundedQuote } from './boundedQuote';
import { jsonBody } from './jsonBody';
import { parseOverviewQuery } from './overviewQuery';
import { Caller, PromotionsOperations } from './PromotionsOperations';

export interface RouterOptions {
  /**
   * The checked capabilities the registered actions share: every route that
   * reads or changes a Product's promotions goes through them, and so through
   * their permission decisions.
   */
  operations: PromotionsOperations;
  httpAuth: HttpAuthService;
  /** `POST /incidents`, when the incident gate is configured. */
  incidentService?: IncidentService;
  /** GET /write-queue: how many of the auto-promoter's promotions wait for their PRs. */
  promotionQueue: Pick<PromotionQueue, 'state'>;
}

/**
 * A ladder's JSON, compact whatever the app's `json spaces` (2 in development: 1.7 times the
 * bytes at 30 Services), written once per shared build however many viewers it answers.
 */
const ladderJson = new WeakMap<object, string>();

function serializedLadder(ladder: object): string {
  let json = ladderJson.get(ladder);
  if (json === undefined) {
    json = JSON.stringify(ladder);
    ladderJson.set(ladder, json);
  }
  return json;
}

export async function createRouter(options: RouterOptions): Promise<express.Router> {
  const { operations, httpAuth, incidentService, promotionQueue } = options;
  // The routes, their types and what a request may hold come from openapi.yaml: its
  // validator refuses a malformed path, query or body with 400 before any handler runs.
  // A known path with an undeclared method passes it untouched (Backstage's
  // ignoreUndocumented) and answers 404 below.
  const router = await createOpenApiRouter({
    middleware: jsonBody(),
    validatorOptions: {
      // The spec is this package's own file, checked against OpenAPI's schema by
      // openapi.test.ts: checking it again on every start cost each backend (and
      // each of the API tests' hundreds) about 27 ms of CPU.
      validateApiSpec: false,
      // Without the incident gate POST /incidents is no route: 404 whatever its body.
      ...(incidentService ? {} : { ignorePaths: /\/incidents$/ }),
    },
  });

  const readerOf = (req: express.Request) => httpAuth.credentials(req, { allow: ['user', 'service'] });
  const callerOf = (req: express.Request): Caller => ({
    credentials: () => httpAuth.credentials(req, { allow: ['user'] }),
    request: req,
  });

  router.get('/health', async (req, res) => {
    await readerOf(req);
    res.json({ status: 'ok' });
  });

  router.get('/products/:team/:product/ladder', async (req, res) => {
    const ladder = await operations.ladder(await readerOf(req), req.params, req.query.detail);
    // The serialized text, typed by the spec's Ladder as the object it serializes.
    (res as express.Response).type('json').send(serializedLadder(ladder));
  });

  router.get('/products/:team/:product/ladder/stages/:stage/services/:service', async (req, res) => {
    res.json(await operations.ladderCell(await readerOf(req), req.params));
  });

  router.get('/products/:team/:product/promotions', async (req, res) => {
    res.json({ items: await operations.promotions(await readerOf(req), req.params) });
  });

  router.post('/products/:team/:product/promotions', async (req, res) => {
    const outcome = await operations.requestPromotion(callerOf(req), req.params, req.body);
    res.status(outcome.existing ? 200 : 201).json(outcome);
  });

  router.post('/products/:team/:product/rollbacks', async (req, res) => {
    const outcome = await operations.rollback(callerOf(req), req.params, req.body);
    res.status(outcome.existing ? 200 : 201).json(outcome);
  });

  router.get('/products/:team/:product/holds', async (req, res) => {
    res.json({ items: await operations.liveHolds(await readerOf(req), req.params) });
  });

  router.post('/products/:team/:product/holds', async (req, res) => {
    res.status(201).json({ hold: await operations.placeHold(callerOf(req), req.params, req.body) });
  });

  router.delete('/products/:team/:product/holds/:stage/:service', async (req, res) => {
    res.json({ hold: await operations.liftHold(callerOf(req), req.params) });
  });

  router.get('/products/:team/:product/auto-promotions', async (req, res) => {
    res.json({ items: await operations.autoPromotions(await readerOf(req), req.params) });
  });

  router.get('/products/:team/:product/changes', async (req, res) => {
    res.json(await operations.changes(await readerOf(req), req.params, req.query.from, req.query.to));
  });

  router.get('/products/:team/:product/stages/:stage/history', async (req, res) => {
    res.json({ items: await operations.stageHistory(await readerOf(req), req.params) });
  });

  router.get('/promotions/:id', async (req, res) => {
    res.json(await operations.promotion(await readerOf(req), req.params.id));
  });

  router.post('/promotions/:id/approve', async (req, res) => {
    res.json({ promotion: await operations.approve(callerOf(req), req.params.id) });
  });

  router.post('/promotions/:id/override', async (req, res) => {
    res.json({ promotion: await operations.override(callerOf(req), req.params.id, req.body) });
  });

  router.post('/promotions/:id/reject', async (req, res) => {
    res.json({ promotion: await operations.reject(callerOf(req), req.params.id, req.body) });
  });

  router.post('/promotions/:id/withdraw', async (req, res) => {
    res.json({ promotion: await operations.withdraw(callerOf(req), req.params.id, req.body) });
  });

  // Organisation-wide: what waits for the caller's approval, oldest first.
  router.get('/approvals', async (req, res) => {
    const credentials = await httpAuth.credentials(req, { allow: ['user'] });
    res.json({ items: await operations.approvals(credentials) });
  });

  // Delivery metrics of a Product, a team or the organisation (readable Products only).
  router.get('/metrics', async (req, res) => {
    res.json(await operations.metrics(await readerOf(req), parseMetricsQuery(req.query, new Date())));
  });

  // The organisation's matrix: a page of the readable Products' rows, filtered.
  router.get('/overview', async (req, res) => {
    res.json(await operations.overview(await readerOf(req), parseOverviewQuery(req.query)));
  });

  // Every diagnosed-stuck deployment of the readable Products, the longest stuck first.
  router.get('/stuck', async (req, res) => {
    res.json(await operations.stuck(await readerOf(req)));
  });

  // Counts only, no Product's data: any signed-in user or service may see how long the queue is.
  router.get('/write-queue', async (req, res) => {
    await httpAuth.credentials(req, { allow: ['user', 'service'] });
    res.json(await promotionQueue.state());
  });

  // Incident tools without the events backend report here; only services (a static or
  // service token), never people: what closes prod must come from the incident tool.
  if (incidentService) {
    router.post('/incidents', async (req, res) => {
      await httpAuth.credentials(req, { allow: ['service'] });
      res.json(await incidentService.report(req.body, { request: req, via: 'http' }));
    });
  }

  // Any other path answers 404 in Backstage's error body (as every route's
  // errors do), not Express's HTML page, so clients parse it like the rest.
  router.use(req => {
    throw new NotFoundError(`No promotions route ${req.method} ${boundedQuote(req.path)}`);
  });

  return router;
}
