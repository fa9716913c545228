import { resolvePackagePath } from '@backstage/backend-plugin-api';
import { TestDatabaseId, TestDatabases } from '@backstage/backend-test-utils';
import { DatabasePromotionStore } from './DatabasePromotionStore';
import { newPromotionDraft, promotionStoreContract } from '@refplat/plugin-promotions-node/testUtils';

jest.setTimeout(60_000);

const databases = TestDatabases.create({ ids: ['POSTGRES_15', 'SQLITE_3'] });
const REJECTION_MIGRATION = '20261207000000_promotion_rejection.js';

async function createStore(databaseId: TestDatabaseId) {
  const knex = await databases.init(databaseId);
  return DatabasePromotionStore.create({
    getClient: async () => knex,
    migrations: { skip: false },
  });
}

describe.each(databases.eachSupportedId())('DatabasePromotionStore on %p', databaseId => {
  describe('the store contract', () => {
    promotionStoreContract(() => createStore(databaseId));
  });

  it('gives promotions rejected before the rejection column theirs, from the audit trail', async () => {
    const knex = await databases.init(databaseId);
    const directory = resolvePackagePath('@refplat/plugin-promotions-backend', 'migrations');
    // The database as it was before the rejection column.
    const pending: { file: string }[] = (await knex.migrate.list({ directory }))[1];
    const before = pending.map(migration => migration.file).filter(file => file < REJECTION_MIGRATION);
    for (const name of before.sort()) await knex.migrate.up({ directory, name });
    const store = new DatabasePromotionStore(knex);
    const { record } = await store.insertLive(newPromotionDraft({ toStage: 'prod' }), 'user:default/bob');
    await knex('promotions').where({ id: record.id }).update({ status: 'closed', open_key: null });
    await knex('promotion_events').insert({
      promotion_id: record.id,
      type: 'rejected',
      actor: 'user:default/alice',
      at: '2026-12-01T10:00:00.000Z',
      detail: 'cart 2.3 breaks checkout',
    });
    const { record: live } = await store.insertLive(newPromotionDraft(), 'user:default/bob');

    await knex.migrate.latest({ directory });
    expect((await store.get(record.id))?.rejection).toEqual({ by: 'user:default/alice', reason: 'cart 2.3 breaks checkout' });
    expect((await store.get(live.id))?.rejection).toBeUndefined();
  });
});
