import { screen, within } from '@testing-library/react';
import { Entity } from '@backstage/catalog-model';
import {
  AnyApiFactory,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/core-plugin-api';
import { mockApis } from '@backstage/test-utils';
import { renderCard, systemFor } from './__testUtils__/card';
import { shopLadder, shopPromotion } from './__testUtils__/ladders';
import {
  EntityPromotionHistoryCard,
  EntityPromotionLadderCard,
  EntityServicePromotionsCard,
  PromotionsApi,
  PromotionsClient,
  isPromotionsAvailable,
  promotionsApiRef,
  promotionsPlugin,
} from './index';

/*
 * The host app is on the new frontend system (`/alpha`); these tests keep the
 * legacy exports covered. Each card is rendered as a legacy app's EntityPage
 * renders it: the package's exported component extension, inside
 * @backstage/test-utils' legacy test app, with an EntityProvider.
 */

const shop = systemFor('shop');

const storefront: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name: 'storefront',
    namespace: 'default',
    annotations: { 'refplat.org/service': 'storefront' },
  },
  spec: { type: 'service', system: 'shop', owner: 'alpha', lifecycle: 'production' },
};

/** The client the legacy plugin's own API factory makes, over `fetch`. */
function clientFromLegacyPlugin(fetch: jest.Mock): PromotionsApi {
  const factory = Array.from(promotionsPlugin.getApis()).find(
    api => api.api.id === promotionsApiRef.id,
  ) as AnyApiFactory;
  expect(Object.keys(factory.deps).sort()).toEqual(['discoveryApi', 'fetchApi']);
  expect(factory.deps.discoveryApi.id).toBe(discoveryApiRef.id);
  expect(factory.deps.fetchApi.id).toBe(fetchApiRef.id);
  return factory.factory({
    discoveryApi: mockApis.discovery({ baseUrl: 'http://backstage' }),
    fetchApi: { fetch },
  }) as PromotionsApi;
}

/** Answers the ladder and empty lists, as a backend with nothing in flight. */
function fakeBackend(): jest.Mock {
  return jest.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input));
    const json = (body: unknown) =>
      new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    if (url.pathname.endsWith('/ladder')) return json(shopLadder());
    if (/\/(promotions|holds|auto-promotions)$/.test(url.pathname)) return json([]);
    return new Response(JSON.stringify({ error: { message: 'not here' } }), {
      status: 404,
      headers: { 'content-type': 'application/json' },
    });
  });
}

describe('the legacy frontend system exports', () => {
  it("provide the promotions client through the plugin's API factory", () => {
    const client = clientFromLegacyPlugin(jest.fn());
    expect(client).toBeInstanceOf(PromotionsClient);
    expect(promotionsPlugin.getId()).toBe('promotions');
  });

  it("EntityPromotionLadderCard shows the System's ladder, read through the plugin's client", async () => {
    const fetch = fakeBackend();
    await renderCard(<EntityPromotionLadderCard />, {
      entity: shop,
      api: clientFromLegacyPlugin(fetch),
    });

    expect(await screen.findByText('Promotion ladder')).toBeInTheDocument();
    expect(await screen.findByTestId('stage-prod')).toBeInTheDocument();
    expect(
      screen.getAllByTestId(/^stage-/).map(el => el.getAttribute('data-testid')),
    ).toEqual(['stage-dev', 'stage-test', 'stage-prod']);
    expect(
      within(screen.getByTestId('cell-dev-storefront')).getByTestId('digest'),
    ).toHaveTextContent(/^aaaaaaa$/);
    expect(fetch).toHaveBeenCalledWith(
      'http://backstage/api/promotions/products/alpha/shop/ladder?detail=summary',
      expect.anything(),
    );
  });

  it("EntityServicePromotionsCard shows a Component's Service at every stage", async () => {
    await renderCard(<EntityServicePromotionsCard />, {
      entity: storefront,
      system: shop,
      api: { getLadder: jest.fn().mockResolvedValue(shopLadder()) },
      getEntityByRef: jest.fn().mockResolvedValue(shop),
    });

    expect(await screen.findByTestId('service-stage-prod')).toHaveTextContent('bbbbbbb');
    expect(screen.getByTestId('service-stage-dev')).toHaveTextContent('aaaaaaa');
  });

  it('EntityPromotionHistoryCard lists the Product’s promotions', async () => {
    const listPromotions = jest.fn().mockResolvedValue([
      shopPromotion({ id: 'p-open', status: 'awaiting-approval' }),
    ]);
    await renderCard(<EntityPromotionHistoryCard />, {
      entity: shop,
      api: { listPromotions, getLadder: jest.fn().mockResolvedValue(shopLadder()) },
    });

    expect(await screen.findByTestId('history-promotion-p-open')).toHaveTextContent(
      'Awaiting approval',
    );
    expect(listPromotions).toHaveBeenCalledWith({ team: 'alpha', product: 'shop' });
  });

  it('isPromotionsAvailable shows the Promotions route on Product Systems only', () => {
    expect(isPromotionsAvailable(shop)).toBe(true);
    expect(
      isPromotionsAvailable({ ...shop, metadata: { name: 'plain', namespace: 'default' } }),
    ).toBe(false);
  });
});
