import { TestDatabaseId, TestDatabases } from '@backstage/backend-test-utils';
import { DatabasePromotionStore } from './DatabasePromotionStore';
import { NewPromotion, OpenPromotionConflictError } from './PromotionStore';

jest.setTimeout(60_000);

const databases = TestDatabases.create({ ids: ['POSTGRES_15', 'SQLITE_3'] });

const digest = (c: string) => `sha256:${c.repeat(64)}`;

function newPromotion(overrides: Partial<NewPromotion> = {}): NewPromotion {
  return {
    team: 'alpha',
    product: 'shop',
    fromStage: 'dev',
    toStage: 'test',
    services: { storefront: digest('a') },
    previousServices: { storefront: digest('b') },
    fingerprint: 'f1',
    status: 'open',
    requestedBy: 'user:default/bob',
    ...overrides,
  };
}

async function createStore(databaseId: TestDatabaseId) {
  const knex = await databases.init(databaseId);
  return DatabasePromotionStore.create({
    getClient: async () => knex,
    migrations: { skip: false },
  });
}

describe.each(databases.eachSupportedId())('DatabasePromotionStore on %p', databaseId => {
  it('stores a promotion with its audit trail and finds it while live', async () => {
    const store = await createStore(databaseId);
    const created = await store.insertLive(newPromotion(), 'user:default/bob');
    expect(created).toMatchObject({
      team: 'alpha',
      toStage: 'test',
      services: { storefront: digest('a') },
      status: 'open',
      requestedBy: 'user:default/bob',
    });
    expect((await store.findLive('alpha', 'shop', 'test'))?.id).toBe(created.id);

    const merged = await store.update(
      created.id,
      { status: 'merged', pullRequest: { number: 7, url: 'https://x/pull/7' } },
      { type: 'merged', actor: 'promotions-gate' },
    );
    expect(merged.pullRequest).toEqual({ number: 7, url: 'https://x/pull/7' });
    expect(await store.findLive('alpha', 'shop', 'test')).toBeUndefined();
    expect((await store.listEvents(created.id)).map(e => e.type)).toEqual(['requested', 'merged']);
  });

  it('allows one live promotion per target stage, even when inserted concurrently', async () => {
    const store = await createStore(databaseId);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => store.insertLive(newPromotion(), 'user:default/bob')),
    );
    const created = results.filter(r => r.status === 'fulfilled');
    const conflicts = results.filter(
      r => r.status === 'rejected' && r.reason instanceof OpenPromotionConflictError,
    );
    expect(created).toHaveLength(1);
    expect(conflicts).toHaveLength(19);
    expect((await store.listLive()).length).toBe(1);
  });

  it('supersedes the live promotion atomically', async () => {
    const store = await createStore(databaseId);
    const first = await store.insertLive(newPromotion(), 'user:default/bob');
    const second = await store.insertLive(
      newPromotion({ services: { storefront: digest('c') }, fingerprint: 'f2' }),
      'user:default/alice',
      { id: first.id, reason: 'superseded' },
    );
    expect((await store.get(first.id))?.status).toBe('closed');
    expect((await store.findLive('alpha', 'shop', 'test'))?.id).toBe(second.id);
    expect((await store.listEvents(first.id)).map(e => e.type)).toEqual(['requested', 'superseded']);
    const listed = (await store.listForProduct('alpha', 'shop', 10)).map(p => p.id);
    expect(listed).toHaveLength(2);
    expect(listed).toEqual(expect.arrayContaining([first.id, second.id]));
  });
});
