import { resolvePackagePath } from '@backstage/backend-plugin-api';
import { TestDatabaseId, TestDatabases } from '@backstage/backend-test-utils';
import { DatabasePromotionStore } from './DatabasePromotionStore';
import { newPromotionDraft, promotionStoreContract } from '@refplat/plugin-promotions-node/testUtils';

jest.setTimeout(60_000);

const databases = TestDatabases.create({ ids: ['POSTGRES_15', 'SQLITE_3'] });
const REJECTION_MIGRATION = '20261207000000_promotion_rejection.js';
const VERDICTS_MIGRATION = '20261214000000_published_verdicts.js';

/** A fresh database migrated up to, not including, `migration`; and the migrations' directory. */
async function migratedBefore(databaseId: TestDatabaseId, migration: string) {
  const knex = await databases.init(databaseId);
  const directory = resolvePackagePath('@refplat/plugin-promotions-backend', 'migrations');
  const pending: { file: string }[] = (await knex.migrate.list({ directory }))[1];
  const before = pending.map(entry => entry.file).filter(file => file < migration);
  for (const name of before.sort()) await knex.migrate.up({ directory, name });
  return { knex, directory };
}

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
    // The database as it was before the rejection column.
    const { knex, directory } = await migratedBefore(databaseId, REJECTION_MIGRATION);
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
  it('reads the verdicts published before they were typed: the colons of a description kept, and matched as the store writes them', async () => {
    const { knex, directory } = await migratedBefore(databaseId, VERDICTS_MIGRATION);
    const store = new DatabasePromotionStore(knex);
    const { record } = await store.insertLive(newPromotionDraft(), 'user:default/bob');
    await knex('promotions')
      .where({ id: record.id })
      .update({
        health_state: 'failure:abc:dev not ready: api: api is progressing',
        guard_state: JSON.stringify({ freeze: 'failure:abc:Quiet week: until Friday', board: 'success:abc:Cleared' }),
      });

    await knex.migrate.latest({ directory });
    const health = { state: 'failure', sha: 'abc', description: 'dev not ready: api: api is progressing' } as const;
    const guards = {
      board: { state: 'success', sha: 'abc', description: 'Cleared' },
      freeze: { state: 'failure', sha: 'abc', description: 'Quiet week: until Friday' },
    } as const;
    expect(await store.get(record.id)).toMatchObject({ healthState: health, guardState: guards });
    expect(await store.transition(record.id, { healthState: health, guardState: guards }, { statusReason: 'matched' })).toBeDefined();

    await knex.migrate.down({ directory });
    expect(await knex('promotions').where({ id: record.id }).first()).toMatchObject({
      health_state: 'failure:abc:dev not ready: api: api is progressing',
    });
  });
});
