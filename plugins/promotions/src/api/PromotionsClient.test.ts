import { ResponseError } from '@backstage/errors';
import { PromotionsClient } from './PromotionsClient';

function fakeResponse(status: number, body: unknown) {
  const text = JSON.stringify(body);
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: status === 409 ? 'Conflict' : 'OK',
    headers: { get: (name: string) => (name.toLowerCase() === 'content-type' ? 'application/json' : null) },
    json: async () => JSON.parse(text),
    text: async () => text,
  } as unknown as Response;
}

function clientAnswering(status: number, body: unknown) {
  const fetch = jest.fn(async (_url: string, _init?: RequestInit) => fakeResponse(status, body));
  const client = new PromotionsClient({
    discoveryApi: { getBaseUrl: async () => 'http://backend/api/promotions' },
    fetchApi: { fetch: fetch as any },
  });
  return { client, fetch };
}

const shop = { team: 'alpha', product: 'shop' };
const promotion = { id: 'p1', status: 'open' };

describe('PromotionsClient', () => {
  it('POSTs a promotion request as JSON and reads the answer', async () => {
    const { client, fetch } = clientAnswering(201, { promotion, existing: false, plan: [] });
    const result = await client.requestPromotion(shop, { toStage: 'test', services: ['cart'] });

    expect(result).toEqual({ promotion, existing: false, plan: [] });
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('http://backend/api/promotions/products/alpha/shop/promotions');
    expect(init?.method).toBe('POST');
    expect(init?.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(JSON.parse(init?.body as string)).toEqual({ toStage: 'test', services: ['cart'] });
  });

  it('reads the ladder in full or as its summary, and one cell of it', async () => {
    const ladder = clientAnswering(200, { stages: [] });
    await ladder.client.getLadder(shop);
    await ladder.client.getLadder(shop, { detail: 'summary' });
    expect(ladder.fetch.mock.calls.map(([url]) => url)).toEqual([
      'http://backend/api/promotions/products/alpha/shop/ladder',
      'http://backend/api/promotions/products/alpha/shop/ladder?detail=summary',
    ]);
    const cell = { declared: true, healthy: true, verdict: 'healthy', checks: [] };
    const one = clientAnswering(200, cell);
    expect(await one.client.getLadderCell(shop, 'test', 'cart')).toEqual(cell);
    expect(one.fetch.mock.calls[0][0]).toBe('http://backend/api/promotions/products/alpha/shop/ladder/stages/test/services/cart');
  });

  it('tells an already open promotion by the 200 when the body does not say', async () => {
    const { client } = clientAnswering(200, { promotion });
    expect((await client.requestPromotion(shop, { toStage: 'test' })).existing).toBe(true);
  });

  it('throws a ResponseError carrying the refusal on 409', async () => {
    const { client } = clientAnswering(409, {
      error: { name: 'ConflictError', message: 'storefront is not healthy in dev' },
      response: { statusCode: 409 },
    });
    const error = await client.requestPromotion(shop, { toStage: 'test' }).catch(e => e);
    expect(error).toBeInstanceOf(ResponseError);
    expect(error.cause.message).toBe('storefront is not healthy in dev');
  });

  it('lists promotions, approves one and reads a stage history', async () => {
    const list = clientAnswering(200, { items: [promotion] });
    expect(await list.client.listPromotions(shop)).toEqual([promotion]);
    expect(list.fetch.mock.calls[0][0]).toBe('http://backend/api/promotions/products/alpha/shop/promotions');

    const approve = clientAnswering(200, { promotion });
    expect(await approve.client.approvePromotion('p1')).toEqual(promotion);
    expect(approve.fetch.mock.calls[0][0]).toBe('http://backend/api/promotions/promotions/p1/approve');
    expect(approve.fetch.mock.calls[0][1]?.method).toBe('POST');

    const history = clientAnswering(200, { items: [{ revision: 'r1' }] });
    expect(await history.client.getStageHistory(shop, 'prod')).toEqual([{ revision: 'r1' }]);
    expect(history.fetch.mock.calls[0][0]).toBe(
      'http://backend/api/promotions/products/alpha/shop/stages/prod/history',
    );
  });

  it('lists the approvals inbox and POSTs a rejection with its reason', async () => {
    const inbox = clientAnswering(200, { items: [promotion] });
    expect(await inbox.client.listApprovals()).toEqual([promotion]);
    expect(inbox.fetch.mock.calls[0][0]).toBe('http://backend/api/promotions/approvals');

    const { client, fetch } = clientAnswering(200, { promotion });
    expect(await client.rejectPromotion('p1', 'breaks checkout')).toEqual(promotion);
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('http://backend/api/promotions/promotions/p1/reject');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(init?.body as string)).toEqual({ reason: 'breaks checkout' });
  });

  it('POSTs a rollback with the digests per service', async () => {
    const { client, fetch } = clientAnswering(201, { promotion, existing: false, plan: [] });
    const request = { stage: 'prod', services: { storefront: 'sha256:b' } };
    expect(await client.requestRollback(shop, request)).toEqual({ promotion, existing: false, plan: [] });
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('http://backend/api/promotions/products/alpha/shop/rollbacks');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(init?.body as string)).toEqual(request);
  });

  it('throws the refusal of a rollback on 409', async () => {
    const { client } = clientAnswering(409, {
      error: { name: 'ConflictError', message: 'Rollback refused: prod already runs storefront' },
      response: { statusCode: 409 },
    });
    const error = await client
      .requestRollback(shop, { stage: 'prod', services: { storefront: 'sha256:b' } })
      .catch(e => e);
    expect(error).toBeInstanceOf(ResponseError);
    expect(error.cause.message).toBe('Rollback refused: prod already runs storefront');
  });

  it('lists, places and lifts holds', async () => {
    const hold = { stage: 'test', service: 'cart', reason: 'incident', placedBy: 'u', placedAt: 't' };
    const list = clientAnswering(200, { items: [hold] });
    expect(await list.client.listHolds(shop)).toEqual([hold]);
    expect(list.fetch.mock.calls[0][0]).toBe('http://backend/api/promotions/products/alpha/shop/holds');

    const place = clientAnswering(201, { hold });
    expect(await place.client.placeHold(shop, { stage: 'test', service: 'cart', reason: 'incident' })).toEqual(hold);
    expect(place.fetch.mock.calls[0][0]).toBe('http://backend/api/promotions/products/alpha/shop/holds');
    expect(place.fetch.mock.calls[0][1]?.method).toBe('POST');
    expect(JSON.parse(place.fetch.mock.calls[0][1]?.body as string)).toEqual({
      stage: 'test',
      service: 'cart',
      reason: 'incident',
    });

    const lift = clientAnswering(200, { hold });
    expect(await lift.client.liftHold(shop, 'test', 'cart')).toEqual(hold);
    expect(lift.fetch.mock.calls[0][0]).toBe('http://backend/api/promotions/products/alpha/shop/holds/test/cart');
    expect(lift.fetch.mock.calls[0][1]?.method).toBe('DELETE');
  });

  it("reads the auto-promoter's latest decisions", async () => {
    const decision = { runId: 'run-1', decidedAt: 't', fromStage: 'dev', toStage: 'test', service: 'cart', decision: 'skip', reason: 'held' };
    const { client, fetch } = clientAnswering(200, { items: [decision] });
    expect(await client.listAutoPromotions(shop)).toEqual([decision]);
    expect(fetch.mock.calls[0][0]).toBe('http://backend/api/promotions/products/alpha/shop/auto-promotions');
  });

  it('reads what a promotion between two stages would ship', async () => {
    const body = { fromStage: 'test', toStage: 'prod', items: [{ service: 'cart', changed: false }] };
    const { client, fetch } = clientAnswering(200, body);
    expect(await client.getChanges(shop, 'test', 'prod')).toEqual(body);
    expect(fetch.mock.calls[0][0]).toBe(
      'http://backend/api/promotions/products/alpha/shop/changes?from=test&to=prod',
    );
  });

  it('reads a page of the matrix with only the filters given, and the stuck list', async () => {
    const page = { stages: ['dev'], rows: [], total: 0 };
    const overview = clientAnswering(200, page);
    expect(await overview.client.getOverview({ team: 'alpha', filter: 'stuck', cursor: 'c1', limit: 50, owner: '' })).toEqual(page);
    expect(overview.fetch.mock.calls[0][0]).toBe(
      'http://backend/api/promotions/overview?team=alpha&filter=stuck&cursor=c1&limit=50',
    );
    await overview.client.getOverview();
    expect(overview.fetch.mock.calls[1][0]).toBe('http://backend/api/promotions/overview');

    const stuck = clientAnswering(200, { items: [{ product: 'alpha/shop' }] });
    expect(await stuck.client.listStuck()).toEqual([{ product: 'alpha/shop' }]);
    expect(stuck.fetch.mock.calls[0][0]).toBe('http://backend/api/promotions/stuck');
  });

  it('reads the metrics of a Product, a team or the organisation over a window', async () => {
    const { client, fetch } = clientAnswering(200, { scope: 'org', products: [] });
    const window = { from: new Date('2027-01-04T00:00:00Z'), to: new Date('2027-01-18T00:00:00Z') };
    await client.getMetrics({ kind: 'product', product: shop }, window);
    await client.getMetrics({ kind: 'team', team: 'alpha' }, window);
    await client.getMetrics({ kind: 'org' }, window);
    const scopes = fetch.mock.calls.map(([url]) => new URL(url).searchParams.get('scope'));
    expect(scopes).toEqual(['product:alpha/shop', 'team:alpha', 'org']);
    expect(new URL(fetch.mock.calls[0][0]).searchParams.get('from')).toBe('2027-01-04T00:00:00.000Z');
    expect(new URL(fetch.mock.calls[0][0]).searchParams.get('to')).toBe('2027-01-18T00:00:00.000Z');
  });
});
