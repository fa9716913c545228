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
    expect(ResponseError.is(error)).toBe(true);
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
});
