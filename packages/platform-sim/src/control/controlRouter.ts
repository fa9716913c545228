import express, { ErrorRequestHandler, Router } from 'express';
import { SimControl, ControlError } from './simControl';
import { UpstreamTarget } from './requestLog';

/** The /_sim control endpoints (no auth: test equipment on localhost). */
export function createControlRouter(control: SimControl): Router {
  const router = express.Router();
  router.use(express.json());

  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });

  router.post('/ci/push', (req, res, next) => {
    control
      .ciPush(req.body ?? {})
      .then(result => res.status(201).json(result), next);
  });

  router.post('/products', (req, res, next) => {
    control
      .addProduct(req.body ?? {})
      .then(added => res.status(201).json(added), next);
  });

  router.get('/bad-digests', (_req, res) => {
    res.json({ digests: control.getState().badDigests });
  });
  router.post('/bad-digests', (req, res) => {
    control.addBadDigest(req.body?.digest);
    res.status(201).json({ digests: control.getState().badDigests });
  });

  router.get('/faults', (_req, res) => {
    res.json({ faults: control.getState().faults });
  });
  router.post('/faults', (req, res) => {
    res.status(201).json(control.addFault(req.body ?? {}));
  });
  router.delete('/faults', (_req, res) => {
    control.clearFaults();
    res.status(204).end();
  });

  router.post('/argocd/down', (req, res) => {
    if (typeof req.body?.down !== 'boolean')
      throw new ControlError(400, 'body must be {"down": true|false}');
    control.setArgocdDown(
      req.body.down,
      req.body.mode === 'reset' ? 'reset' : '503',
    );
    res.json({ down: req.body.down });
  });

  router.post('/apps/:name', (req, res) => {
    control.setApp(req.params.name, req.body ?? {});
    res.json(
      control.getState().apps.find(app => app.name === req.params.name) ?? {},
    );
  });

  router.get('/requests', (req, res) => {
    const target =
      typeof req.query.target === 'string'
        ? (req.query.target as UpstreamTarget)
        : undefined;
    res.json({ requests: control.getRequests(target) });
  });
  router.delete('/requests', (_req, res) => {
    control.clearRequests();
    res.status(204).end();
  });

  router.get('/streams', (_req, res) => {
    res.json(control.openStreams());
  });
  router.post('/streams/drop', (_req, res) => {
    res.json({ dropped: control.dropStreams() });
  });

  router.get('/state', (_req, res) => {
    res.json(control.getState());
  });

  router.post('/reconcile', (_req, res, next) => {
    control.reconcileNow().then(() => res.status(204).end(), next);
  });

  router.post('/github/rate-limit', (req, res) => {
    if (
      typeof req.body?.login !== 'string' ||
      typeof req.body?.used !== 'number'
    ) {
      throw new ControlError(
        400,
        'body must be {"login": string, "used": number}',
      );
    }
    control.setGithubRateLimitUsed(req.body.login, req.body.used);
    res.status(204).end();
  });

  const errors: ErrorRequestHandler = (error, _req, res, _next) => {
    let status = 500;
    if (error instanceof ControlError) status = error.status;
    else if (error?.type === 'entity.parse.failed') status = 400;
    if (status === 500) console.error('platform-sim control error:', error);
    res.status(status).json({ error: error?.message ?? String(error) });
  };
  router.use(errors);
  return router;
}
