import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import express from 'express';
import request from 'supertest';
import { createRouter, RouterOptions } from '../service/router';
import { spec } from './openapi/generated';

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The router with every optional route on; no handler runs while routes are only listed. */
function routerWithEveryRoute(overrides: Partial<RouterOptions> = {}) {
  return createRouter({ incidentService: {}, ...overrides } as unknown as RouterOptions);
}

/** `GET /promotions/:id` for each route the router registers. */
function routesOf(router: express.Router): string[] {
  return router.stack.flatMap(layer => {
    const route = layer.route as { path: string; methods: Record<string, boolean> } | undefined;
    if (!route) return [];
    return Object.keys(route.methods)
      .filter(method => HTTP_METHODS.includes(method))
      .map(method => `${method.toUpperCase()} ${route.path}`);
  });
}

/** The same for each operation of openapi.yaml, its `{name}` parameters written `:name`. */
function routesOfSpec(): string[] {
  return Object.entries(spec.paths).flatMap(([template, item]) =>
    Object.keys(item)
      .filter(method => HTTP_METHODS.includes(method))
      .map(method => `${method.toUpperCase()} ${template.replace(/\{(\w+)\}/g, ':$1')}`),
  );
}

/** Served by Backstage's OpenAPI router itself: the spec, not a route of ours. */
const SPEC_ROUTE = 'GET /openapi.json';

describe('openapi.yaml and the router', () => {
  it('declare the same routes: none only in the router, none only in the spec', async () => {
    const routes = routesOf(await routerWithEveryRoute()).filter(route => route !== SPEC_ROUTE);
    expect(routes.length).toBeGreaterThan(0);
    expect({ onlyInRouter: routes.filter(route => !routesOfSpec().includes(route)) }).toEqual({ onlyInRouter: [] });
    expect({ onlyInSpec: routesOfSpec().filter(route => !routes.includes(route)) }).toEqual({ onlyInSpec: [] });
  });

  it('leaves out POST /incidents without the incident gate, as the spec says', async () => {
    expect(routesOf(await routerWithEveryRoute({ incidentService: undefined }))).not.toContain('POST /incidents');
  });

  it('serves the spec, and a route answers through the OpenAPI router', async () => {
    const httpAuth = { credentials: async () => ({ principal: { type: 'service', subject: 'test' } }) };
    const app = express().use(await routerWithEveryRoute({ httpAuth } as unknown as Partial<RouterOptions>));
    const served = await request(app).get('/openapi.json');
    expect(served.status).toBe(200);
    expect(Object.keys(served.body.paths)).toEqual(Object.keys(spec.paths));
    expect((await request(app).get('/health')).body).toEqual({ status: 'ok' });
  });

  it('has its generated code committed as openapi.yaml generates it (generate.js --check)', async () => {
    await expect(promisify(execFile)(process.execPath, [path.join(__dirname, 'generate.js'), '--check'])).resolves.toBeDefined();
  });
});
