import { TestDatabaseId, TestDatabases } from '@backstage/backend-test-utils';
import { DatabasePromotionStore } from '../database/DatabasePromotionStore';
import { DatabaseIncidentStore } from './IncidentStore';

jest.setTimeout(60_000);

const databases = TestDatabases.create({ ids: ['POSTGRES_15', 'SQLITE_3'] });

const shop = { team: 'alpha', product: 'shop' };
const payments = { team: 'beta', product: 'payments' };
const at = (minute: number) => new Date(Date.UTC(2026, 11, 1, 10, minute));
const url = (id: string) => `https://status.example/incidents/${id}`;

describe.each(databases.eachSupportedId())('IncidentStore on %s', (databaseId: TestDatabaseId) => {
  async function createStores() {
    const knex = await databases.init(databaseId);
    await DatabasePromotionStore.create({ getClient: async () => knex, migrations: { skip: false } });
    // Two replicas on one database.
    return [new DatabaseIncidentStore(knex), new DatabaseIncidentStore(knex)];
  }

  it('opens an incident once however often and wherever it is reported, and lists it for its Product only', async () => {
    const [a, b] = await createStores();
    expect(await Promise.all([a.open(shop, 'INC-1', url('INC-1'), at(0)), b.open(shop, 'INC-1', url('INC-1'), at(1))])).toEqual(
      expect.arrayContaining([true, false]),
    );
    expect(await a.open(shop, 'INC-1', url('INC-1b'), at(2))).toBe(false);
    expect(await a.open(shop, 'INC-2', url('INC-2'), at(3))).toBe(true);
    expect(await b.listOpen(shop)).toEqual([
      { id: 'INC-1', url: url('INC-1b'), openedAt: expect.stringMatching(/^2026-12-01T10:0[01]:00.000Z$/) },
      { id: 'INC-2', url: url('INC-2'), openedAt: at(3).toISOString() },
    ]);
    expect(await b.listOpen(payments)).toEqual([]);
  });

  it('resolves an open incident once, and opens it again when it is reported open later', async () => {
    const [a, b] = await createStores();
    await a.open(shop, 'INC-1', url('INC-1'), at(0));
    expect(await b.resolve(payments, 'INC-1', at(1))).toBe(false);
    expect(await b.resolve(shop, 'INC-1', at(1))).toBe(true);
    expect(await a.resolve(shop, 'INC-1', at(2))).toBe(false);
    expect(await a.listOpen(shop)).toEqual([]);
    expect(await b.open(shop, 'INC-1', url('INC-1'), at(5))).toBe(true);
    expect(await a.listOpen(shop)).toEqual([{ id: 'INC-1', url: url('INC-1'), openedAt: at(5).toISOString() }]);
  });
});
