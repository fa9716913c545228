import SwaggerParser from '@apidevtools/swagger-parser';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { isValidDigest, isValidName } from '@refplat/plugin-promotions-common';
import { MiddlewareFactory } from '@backstage/backend-defaults/rootHttpRouter';
import { mockServices } from '@backstage/backend-test-utils';
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
  it('is a valid OpenAPI 3.1 document', async () => {
    await expect(SwaggerParser.validate(path.join(__dirname, 'openapi.yaml'))).resolves.toMatchObject({ openapi: '3.1.0' });
  });

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

  it("says the names and digests the backend takes with -common's rules", () => {
    const { parameters, schemas } = spec.components;
    const name = new RegExp(parameters.team.schema.pattern);
    const digest = new RegExp(schemas.RollbackRequest.properties.services.additionalProperties.pattern);
    const samples = ['a', 'shop', 'a-b', 'a1', 'A', '-a', 'a-', 'a_b', '', 'a'.repeat(63), 'a'.repeat(64)];
    expect(samples.filter(sample => name.test(sample))).toEqual(samples.filter(sample => isValidName(sample)));
    const digests = [`sha256:${'a'.repeat(64)}`, `sha256:${'A'.repeat(64)}`, `sha256:${'a'.repeat(63)}`, 'latest'];
    expect(digests.filter(sample => digest.test(sample))).toEqual(digests.filter(sample => isValidDigest(sample)));
  });

  // A Node process that loads the generator: past Jest's 5 s on a loaded 2-core CI machine (seen once).
  it('has its generated code committed as openapi.yaml generates it (generate.js --check)', async () => {
    await expect(promisify(execFile)(process.execPath, [path.join(__dirname, 'generate.js'), '--check'])).resolves.toBeDefined();
  }, 120_000);
});

describe("openapi.yaml's request validator", () => {
  const DIGEST = `sha256:${'a'.repeat(64)}`;
  const ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
  const INCIDENT = { product: 'alpha/shop', id: 'INC-1', state: 'open', url: 'https://status.example/INC-1' };

  /** The router mounted as the backend mounts it; each operation only says it was reached. */
  async function app(overrides: Partial<RouterOptions> = {}) {
    const reached = jest.fn();
    const operations = new Proxy({}, { get: (_, name) => async () => reached(name) ?? { existing: false } });
    const httpAuth = { credentials: async () => ({ principal: { type: 'user', userEntityRef: 'user:default/a' } }) };
    const incidentService = { report: async () => reached('report') ?? {} };
    const router = await routerWithEveryRoute({ operations, httpAuth, incidentService, ...overrides } as unknown as Partial<RouterOptions>);
    const middleware = MiddlewareFactory.create({ config: mockServices.rootConfig(), logger: mockServices.logger.mock() });
    return { reached, server: express().use('/api/promotions', router).use(middleware.error()) };
  }

  it.each([
    ['/products/alpha/shop/promotions', { toStage: 'test' }],
    ['/products/alpha/shop/promotions', { toStage: 'prod', services: ['cart'], override: { reason: 'hotfix' } }],
    ['/products/alpha/shop/rollbacks', { stage: 'prod', services: { cart: DIGEST } }],
    ['/products/alpha/shop/holds', { stage: 'uat', service: 'cart', reason: `  ${'x'.repeat(900)} ` }],
    [`/promotions/${ID}/approve`, {}],
    [`/promotions/${ID}/approve`, undefined],
    [`/promotions/${ID}/reject`, { reason: 'x'.repeat(1000) }],
    ['/incidents', INCIDENT],
    ['/incidents', { ...INCIDENT, product: ' alpha/shop ', url: 'HTTPS://status.example/a b?c' }],
  ])('lets POST %s with %p through to its operation', async (route, body) => {
    const { reached, server } = await app();
    const response = await request(server).post(`/api/promotions${route}`).send(body);
    expect(response.status).not.toBe(400);
    expect(reached).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['/products/alpha/shop/promotions', { toStage: 'Prod' }, /body\/toStage must match pattern/],
    ['/products/alpha/shop/promotions', { toStage: ['test'] }, /body\/toStage must be string/],
    ['/products/alpha/shop/promotions', { toStage: 'test', services: 'cart' }, /body\/services must be array/],
    ['/products/alpha/shop/promotions', { toStage: 'test', services: [] }, /body\/services must NOT have fewer than 1 items/],
    ['/products/alpha/shop/promotions', { toStage: 'test', services: ['cart', 7] }, /body\/services\/1 must be string/],
    ['/products/alpha/shop/promotions', { toStage: 'test', override: { reason: ' ' } }, /body\/override\/reason must match pattern/],
    ['/products/alpha/shop/promotions', [], /body must be object/],
    ['/products/alpha/shop/rollbacks', { stage: 'prod', services: { cart: 'latest' } }, /body\/services\/cart must match pattern/],
    ['/products/alpha/shop/rollbacks', { stage: 'prod', services: {} }, /body\/services must NOT have fewer than 1 properties/],
    ['/products/alpha/shop/rollbacks', { stage: 'prod', services: { Cart: DIGEST } }, /body\/services property name must be valid/],
    ['/products/alpha/shop/rollbacks', { stage: 'prod', services: ['cart'] }, /body\/services must be object/],
    ['/products/alpha/shop/holds', { stage: 'uat', service: 'cart', reason: '   ' }, /body\/reason must match pattern/],
    ['/products/alpha/shop/holds', { stage: 'uat', service: 'cart', reason: { text: 'x' } }, /body\/reason must be string/],
    ['/products/alpha/shop/holds', { stage: 'uat', service: 'cart' }, /body must have required property 'reason'/],
    ['/products/Alpha/shop/holds', { stage: 'uat', service: 'cart', reason: 'x' }, /params\/team must match pattern/],
    [`/promotions/${ID}/override`, {}, /body must have required property 'reason'/],
    [`/promotions/${ID}/reject`, { reason: 42 }, /body\/reason must be string/],
    [`/promotions/${ID}/withdraw`, { reason: 'x'.repeat(1001) }, /body\/reason must NOT have more than 1000 characters/],
    ['/promotions/not-an-id/reject', { reason: 'x' }, /params\/id must match pattern/],
    ['/incidents', { ...INCIDENT, product: 'shop' }, /body\/product must match pattern/],
    ['/incidents', { ...INCIDENT, id: ' ' }, /body\/id must match pattern/],
    ['/incidents', { ...INCIDENT, id: 'x'.repeat(201) }, /body\/id must NOT have more than 200 characters/],
    ['/incidents', { ...INCIDENT, state: 'closed' }, /body\/state must be equal to one of the allowed values: open, resolved/],
    ['/incidents', { ...INCIDENT, url: 'ftp://x' }, /body\/url must match pattern/],
    ['/incidents', { ...INCIDENT, url: `https://x/${'a'.repeat(2000)}` }, /body\/url must NOT have more than 2000 characters/],
  ])('answers 400 to POST %s with %p, before its operation', async (route, body, message) => {
    const { reached, server } = await app();
    const response = await request(server).post(`/api/promotions${route}`).send(body as object);
    expect([response.status, response.body.error.name]).toEqual([400, 'InputError']);
    expect(response.body.error.message).toMatch(message);
    expect(reached).not.toHaveBeenCalled();
  });

  it.each([
    '/metrics?scope=product:gamma/web&from=2027-01-04&to=2027-01-18',
    '/metrics?scope=org&from=2027-01-04T10:00:00.000Z&to=2027-01-18T10:00:00.000Z',
    '/metrics?scope=team:alpha',
    '/overview?team=beta',
    '/overview?owner=group:default/alpha',
    '/overview?filter=mine&limit=50',
    '/stuck',
    '/products/alpha/shop/changes?from=dev&to=test',
    '/products/alpha/shop/ladder',
    '/products/alpha/shop/ladder?detail=summary',
    '/products/alpha/shop/ladder?detail=full',
    '/products/alpha/shop/ladder/stages/dev/services/cart',
  ])('lets GET %s through to its operation', async route => {
    const { reached, server } = await app();
    const response = await request(server).get(`/api/promotions${route}`);
    expect([response.status, response.body?.error?.message]).not.toEqual([400, expect.anything()]);
    expect(reached).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['/products/alpha/shop/changes?from=dev', /query must have required property 'to'/],
    ['/products/alpha/shop/changes?from=Dev&to=test', /query\/from must match pattern/],
    ['/products/alpha/shop/changes?from[]=dev&to=test', /query\/from must be string/],
    ['/overview?filter=broken', /query\/filter must be equal to one of the allowed values: stuck, awaiting-approval, mine/],
    ['/overview?team=a&team=b', /query\/team must be string/],
    ['/products/alpha/shop/ladder?detail=brief', /query\/detail must be equal to one of the allowed values: full, summary/],
    ['/products/alpha/shop/ladder/stages/Dev/services/cart', /request\/params\/stage must match pattern/],
  ])('answers 400 to GET %s', async (route, message) => {
    const { reached, server } = await app();
    const response = await request(server).get(`/api/promotions${route}`);
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(message);
    expect(reached).not.toHaveBeenCalled();
  });

  it('answers 404 to a method the spec does not declare on a known path, and to POST /incidents without the gate', async () => {
    const { server } = await app({ incidentService: undefined });
    expect((await request(server).put('/api/promotions/products/alpha/shop/holds').send({})).status).toBe(404);
    expect((await request(server).post('/api/promotions/incidents').send({ id: 7 })).status).toBe(404);
  });
});
