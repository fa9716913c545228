import { TestDatabases } from '@backstage/backend-test-utils';
import type { HealthVerdict, Ladder } from '@refplat/plugin-promotions-common';
import { DatabasePromotionStore } from './DatabasePromotionStore';
import { DatabaseHealthySinceStore } from './HealthySinceStore';

jest.setTimeout(60_000);

const databases = TestDatabases.create({ ids: ['SQLITE_3'] });

const digest = (c: string) => `sha256:${c.repeat(64)}`;
const at = (minute: number) => new Date(Date.UTC(2026, 11, 1, 10, minute));

/** A dev stage of shop whose services have the given digest and verdict. */
function ladder(services: Record<string, [string, HealthVerdict]>): Ladder {
  const cells = Object.fromEntries(
    Object.entries(services).map(([service, [d, verdict]]) => [
      service,
      { digest: d, verdict, healthy: verdict === 'healthy' },
    ]),
  );
  return {
    team: 'alpha',
    product: 'shop',
    stages: [{ name: 'dev', services: cells }],
  } as unknown as Ladder;
}

async function createStore() {
  const knex = await databases.init('SQLITE_3');
  await DatabasePromotionStore.create({ getClient: async () => knex, migrations: { skip: false } });
  return new DatabaseHealthySinceStore(knex);
}

describe('HealthySinceStore: healthy since belongs to (stage, service, digest)', () => {
  it("keeps an unchanged service's time through a neighbour's new digest and its sync", async () => {
    const store = await createStore();
    await store.observe(
      ladder({ storefront: [digest('a'), 'healthy'], cart: [digest('b'), 'healthy'] }),
      at(0),
    );
    // cart gets a new digest; storefront is briefly progressing while the Application syncs.
    const syncing = await store.observe(
      ladder({ storefront: [digest('a'), 'progressing'], cart: [digest('c'), 'progressing'] }),
      at(5),
    );
    expect(syncing[`dev/storefront/${digest('a')}`]).toBe(at(0).toISOString());
    const settled = await store.observe(
      ladder({ storefront: [digest('a'), 'healthy'], cart: [digest('c'), 'healthy'] }),
      at(6),
    );
    expect(settled).toEqual({
      [`dev/storefront/${digest('a')}`]: at(0).toISOString(),
      [`dev/cart/${digest('c')}`]: at(6).toISOString(),
    });
  });

  it('starts again for a new digest and after a failure of the service itself', async () => {
    const store = await createStore();
    await store.observe(ladder({ storefront: [digest('a'), 'healthy'] }), at(0));
    await store.observe(ladder({ storefront: [digest('a'), 'unhealthy'] }), at(1));
    expect(await store.observe(ladder({ storefront: [digest('a'), 'healthy'] }), at(2))).toEqual({
      [`dev/storefront/${digest('a')}`]: at(2).toISOString(),
    });
    expect(await store.observe(ladder({ storefront: [digest('d'), 'healthy'] }), at(3))).toEqual({
      [`dev/storefront/${digest('d')}`]: at(3).toISOString(),
    });
    expect(await store.read({ team: 'alpha', product: 'shop' })).toEqual({
      [`dev/storefront/${digest('d')}`]: at(3).toISOString(),
    });
  });
});
