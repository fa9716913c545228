import { TestDatabaseId, TestDatabases } from '@backstage/backend-test-utils';
import { DatabasePromotionStore } from './DatabasePromotionStore';
import { DatabaseNotificationClaimStore } from './NotificationClaimStore';

jest.setTimeout(60_000);

const databases = TestDatabases.create({ ids: ['POSTGRES_15', 'SQLITE_3'] });

const HOUR = 60 * 60 * 1000;
const at = (hours: number) => new Date(Date.UTC(2026, 11, 1, 10) + hours * HOUR);
const stall = (service: string) => `stuck-notified:alpha/shop:dev:${service}:sha256:${'a'.repeat(64)}`;

describe.each(databases.eachSupportedId())('NotificationClaimStore on %s', (databaseId: TestDatabaseId) => {
  async function createStores() {
    const knex = await databases.init(databaseId);
    await DatabasePromotionStore.create({ getClient: async () => knex, migrations: { skip: false } });
    // Two replicas on one database, claims holding for a day.
    return { knex, replicas: [new DatabaseNotificationClaimStore(knex, 24 * HOUR), new DatabaseNotificationClaimStore(knex, 24 * HOUR)] };
  }

  it('gives a key to exactly one of many concurrent claims on two replicas, and each key to its first claim', async () => {
    const { replicas } = await createStores();
    const sameKey = await Promise.all(Array.from({ length: 20 }, (_, i) => replicas[i % 2].claim(stall('cart'), at(0))));
    expect(sameKey.filter(won => won)).toHaveLength(1);

    const services = ['storefront', 'checkout', 'search', 'payments'];
    const ownKeys = await Promise.all(services.map((service, i) => replicas[i % 2].claim(stall(service), at(0))));
    expect(ownKeys).toEqual([true, true, true, true]);
    expect(await replicas[1].claim(stall('storefront'), at(1))).toBe(false);
  });

  it('lets a key be claimed again once its claim expired, and deletes expired claims', async () => {
    const { knex, replicas } = await createStores();
    expect(await replicas[0].claim(stall('cart'), at(0))).toBe(true);
    expect(await replicas[0].claim(stall('checkout'), at(1))).toBe(true);
    expect(await replicas[1].claim(stall('cart'), at(23))).toBe(false);

    expect(await replicas[1].claim(stall('cart'), at(24))).toBe(true);
    expect(await replicas[0].claim(stall('cart'), at(25))).toBe(false);
    // checkout's claim expired with the next claim after a day; cart's is the new one.
    expect(await replicas[0].claim(stall('search'), at(25))).toBe(true);
    const rows = await knex('notification_claims').orderBy('claim_key');
    expect(rows).toEqual([
      { claim_key: stall('cart'), claimed_at: at(24).toISOString() },
      { claim_key: stall('search'), claimed_at: at(25).toISOString() },
    ]);
  });
});
