import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import { sharedSimBackend } from '../__testUtils__/sharedSimBackend';

jest.setTimeout(120_000);

// alice is a release-approver: no 403 stands between her and the checks below
const alice = mockCredentials.user.header('user:default/alice');
const DIGEST = `sha256:${'2'.repeat(64)}`;

describe('requests about unknown Products, stages and services', () => {
  const shared = sharedSimBackend();

  const send = (method: 'get' | 'post' | 'delete', path: string, body?: object) => {
    const pending = request(shared.server)[method](`/api/promotions/products/${path}`).set('Authorization', alice);
    return body ? pending.send(body) : pending;
  };

  it.each([
    ['get', 'nope/nope/holds', undefined],
    ['get', 'nope/nope/auto-promotions', undefined],
    ['get', 'nope/nope/promotions', undefined],
    ['get', 'nope/nope/changes?from=dev&to=test', undefined],
    ['get', 'nope/nope/stages/dev/history', undefined],
    ['post', 'nope/nope/holds', { stage: 'dev', service: 'storefront', reason: 'why not' }],
    ['delete', 'nope/nope/holds/dev/storefront', undefined],
    ['post', 'nope/nope/promotions', { toStage: 'test' }],
    ['post', 'nope/nope/rollbacks', { stage: 'dev', services: { storefront: DIGEST } }],
  ] as const)('%s %s answers 404', async (method, path, body) => {
    const response = await send(method, path, body);
    expect(response.status).toBe(404);
    expect(response.body.error.message).toMatch(/No Product nope\/nope/);
  });

  it('answers 404 for the history of a stage the ladder does not have', async () => {
    const response = await send('get', 'alpha/shop/stages/qa/history');
    expect(response.status).toBe(404);
    expect(response.body.error.message).toMatch(/Unknown stage 'qa'/);
  });

  it.each([
    [{ stage: 'qa', service: 'storefront', reason: 'x' }, /Unknown stage 'qa'/],
    [{ stage: 'uat', service: 'checkout', reason: 'x' }, /checkout is not a service of uat/],
    [{ stage: 'dev', service: 'ledger', reason: 'x' }, /ledger is not a service of dev/],
  ])('answers 400 to a hold on %p, and places none', async (body, message) => {
    const response = await send('post', 'alpha/shop/holds', body);
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(message);
    expect((await send('get', 'alpha/shop/holds')).body.items).toEqual([]);
  });

  it.each([
    ['?from=prod&to=dev', /prod is not below dev/],
    ['?from=test&to=test', /test is not below test/],
    ['?from=qa&to=prod', /Unknown stage 'qa'/],
    ['?from[]=dev&to=test', /Give the two stages/],
  ])('answers 400 to changes%s', async (query, message) => {
    const response = await send('get', `alpha/shop/changes${query}`);
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(message);
  });

  it('still answers for a known Product', async () => {
    for (const path of ['alpha/shop/holds', 'alpha/shop/auto-promotions', 'alpha/shop/promotions', 'alpha/shop/stages/dev/history']) {
      expect((await send('get', path)).status).toBe(200);
    }
  });
});
