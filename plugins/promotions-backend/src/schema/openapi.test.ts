import SwaggerParser from '@apidevtools/swagger-parser';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { isValidDigest, isValidName } from '@refplat/plugin-promotions-common';
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
