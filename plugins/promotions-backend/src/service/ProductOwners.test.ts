import { CacheManager } from '@backstage/backend-defaults/cache';
import { mockServices } from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
import { ConfigReader } from '@backstage/config';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { CatalogProductOwners } from './ProductOwners';

const system = (name: string, product: string, owner: string): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'System',
  metadata: { name, namespace: 'default', annotations: { 'refplat.org/product': product } },
  spec: { owner },
});

describe('CatalogProductOwners', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it("reads the owners from the catalog once a minute, through Backstage's cache", async () => {
    jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z'), doNotFake: ['nextTick', 'setImmediate'] });
    const catalog = catalogServiceMock({
      entities: [system('shop', 'alpha/shop', 'alpha'), system('payments', 'beta/payments', 'group:ops/beta')],
    });
    const getEntities = jest.spyOn(catalog, 'getEntities');
    const cache = CacheManager.fromConfig(new ConfigReader({})).forPlugin('promotions');
    const owners = new CatalogProductOwners(catalog, mockServices.auth(), cache);

    expect(await owners.of({ team: 'alpha', product: 'shop' })).toEqual(['group:default/alpha']);
    expect(await owners.of({ team: 'beta', product: 'payments' })).toEqual(['group:ops/beta']);
    expect(await owners.of({ team: 'gamma', product: 'none' })).toEqual([]);
    expect(getEntities).toHaveBeenCalledTimes(1);

    jest.setSystemTime(new Date('2026-01-01T00:00:59Z'));
    await owners.of({ team: 'alpha', product: 'shop' });
    expect(getEntities).toHaveBeenCalledTimes(1);

    jest.setSystemTime(new Date('2026-01-01T00:01:01Z'));
    expect(await owners.of({ team: 'alpha', product: 'shop' })).toEqual(['group:default/alpha']);
    expect(getEntities).toHaveBeenCalledTimes(2);
  });

  it('reads the catalog again, at most every 5 s, for a Product it does not know yet', async () => {
    jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z'), doNotFake: ['nextTick', 'setImmediate'] });
    const entities = [system('shop', 'alpha/shop', 'alpha')];
    const catalog = catalogServiceMock({ entities });
    const getEntities = jest.spyOn(catalog, 'getEntities');
    const cache = CacheManager.fromConfig(new ConfigReader({})).forPlugin('promotions');
    const owners = new CatalogProductOwners(catalog, mockServices.auth(), cache);
    const newcomer = { team: 'alpha', product: 'shop-2' };

    expect(await owners.of(newcomer)).toEqual([]);
    expect(await owners.of(newcomer)).toEqual([]);
    expect(getEntities).toHaveBeenCalledTimes(1);

    // The catalog takes the new System in; the next miss after 5 s finds it.
    getEntities.mockResolvedValue({ items: [...entities, system('shop-2', 'alpha/shop-2', 'alpha')] });
    jest.setSystemTime(new Date('2026-01-01T00:00:04Z'));
    expect(await owners.of(newcomer)).toEqual([]);
    jest.setSystemTime(new Date('2026-01-01T00:00:05Z'));
    expect(await owners.of(newcomer)).toEqual(['group:default/alpha']);
    expect(await owners.of({ team: 'alpha', product: 'shop' })).toEqual(['group:default/alpha']);
    expect(getEntities).toHaveBeenCalledTimes(2);
  });

  it('looks up many Products with one catalog query, and reads the cache no more once it holds the map', async () => {
    const entities = Array.from({ length: 500 }, (_, n) => system(`p${n}`, `alpha/p${n}`, 'alpha'));
    const catalog = catalogServiceMock({ entities });
    const getEntities = jest.spyOn(catalog, 'getEntities');
    const cache = CacheManager.fromConfig(new ConfigReader({})).forPlugin('promotions');
    const cacheGet = jest.spyOn(cache, 'get');
    const owners = new CatalogProductOwners(catalog, mockServices.auth(), cache);

    const found = await Promise.all(entities.map((_, n) => owners.of({ team: 'alpha', product: `p${n}` })));

    expect(found.every(list => list[0] === 'group:default/alpha')).toBe(true);
    expect(getEntities).toHaveBeenCalledTimes(1);
    await owners.of({ team: 'alpha', product: 'p1' });
    // Each lookup that found no map read the cache; once one is held, none does.
    expect(cacheGet.mock.calls.length).toBeLessThanOrEqual(entities.length);
    const before = cacheGet.mock.calls.length;
    await Promise.all(entities.map((_, n) => owners.of({ team: 'alpha', product: `p${n}` })));
    expect(cacheGet.mock.calls.length).toBe(before);
  });

  it("takes another replica's newer map from the cache once its own minute ended", async () => {
    jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z'), doNotFake: ['nextTick', 'setImmediate'] });
    const catalog = catalogServiceMock({ entities: [system('shop', 'alpha/shop', 'alpha')] });
    const cache = CacheManager.fromConfig(new ConfigReader({})).forPlugin('promotions');
    const owners = new CatalogProductOwners(catalog, mockServices.auth(), cache);
    expect(await owners.of({ team: 'alpha', product: 'shop' })).toEqual(['group:default/alpha']);

    // Another replica read the catalog after the owner changed.
    jest.setSystemTime(new Date('2026-01-01T00:00:30Z'));
    await cache.set('product-systems', {
      systems: { 'alpha/shop': { owners: ['group:default/shop-team'], approvalAnnotations: {} } },
      readAt: Date.now(),
    });
    expect(await owners.of({ team: 'alpha', product: 'shop' })).toEqual(['group:default/alpha']);
    jest.setSystemTime(new Date('2026-01-01T00:01:00Z'));
    expect(await owners.of({ team: 'alpha', product: 'shop' })).toEqual(['group:default/shop-team']);
  });

  it("keeps the System's approval annotations, and none of the others", async () => {
    const shop = system('shop', 'alpha/shop', 'alpha');
    shop.metadata.annotations = {
      ...shop.metadata.annotations,
      'refplat.org/approvers': 'group:default/shop-release',
      'refplat.org/approval-quorum': 'prod=2',
      'refplat.org/auto-promote': 'false',
    };
    const unowned: Entity = { ...system('payments', 'beta/payments', ''), spec: {} };
    const cache = CacheManager.fromConfig(new ConfigReader({})).forPlugin('promotions');
    const owners = new CatalogProductOwners(catalogServiceMock({ entities: [shop, unowned] }), mockServices.auth(), cache);

    expect(await owners.approvalAnnotations({ team: 'alpha', product: 'shop' })).toEqual({
      'refplat.org/approvers': 'group:default/shop-release',
      'refplat.org/approval-quorum': 'prod=2',
    });
    expect(await owners.approvalAnnotations({ team: 'beta', product: 'payments' })).toEqual({});
    expect(await owners.of({ team: 'beta', product: 'payments' })).toEqual([]);
    expect(await owners.approvalAnnotations({ team: 'gamma', product: 'none' })).toBeUndefined();
  });
});
