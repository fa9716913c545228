import express, { Router } from 'express';
import { escapeHtml } from '../http/html';
import { IncidentDesk } from './incidentDesk';

const PRODUCT = /^[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9-]*$/;

/**
 * /_sim/incidents: POST {product: "team/product", state: "open" | "resolved"}
 * opens or resolves the Product's incident and reports it; answers
 * {incident, delivery} (502 when the receiver did not take the report).
 */
export function createIncidentControlRoutes(desk: IncidentDesk): Router {
  const router = express.Router();
  router.use(express.json());
  router.post('/', async (req, res) => {
    const { product, state } = req.body ?? {};
    if (typeof product !== 'string' || !PRODUCT.test(product) || !['open', 'resolved'].includes(state)) {
      res.status(400).json({ error: 'body must be {"product": "<team>/<product>", "state": "open" | "resolved"}' });
      return;
    }
    const result = state === 'open' ? await desk.open(product) : await desk.resolve(product);
    if (!result) {
      res.status(404).json({ error: `${product} has no open incident` });
      return;
    }
    const failed = result.delivery && (result.delivery.status < 200 || result.delivery.status >= 300);
    res.status(failed ? 502 : 200).json(result);
  });
  return router;
}

/** /incidents/<id>: the incident's page, where the ladder's incident links lead (no auth, like the PR pages). */
export function createIncidentPages(desk: IncidentDesk): Router {
  const router = express.Router();
  router.get('/:id', (req, res) => {
    const incident = desk.get(req.params.id);
    if (!incident) {
      res.status(404).type('text/html').send('<h1>Incident not found</h1>');
      return;
    }
    const { id, product, state, openedAt, resolvedAt } = incident;
    res
      .type('text/html')
      .send(
        `<!doctype html><title>${escapeHtml(id)} ${escapeHtml(product)}</title>` +
          `<h1>Incident ${escapeHtml(id)}: ${escapeHtml(product)}</h1>` +
          `<p>State: <b data-testid="state">${state}</b> — opened ${openedAt}${resolvedAt ? `, resolved ${resolvedAt}` : ''}</p>` +
          '<p><i>platform-sim: simulated incident tool</i></p>',
      );
  });
  return router;
}
