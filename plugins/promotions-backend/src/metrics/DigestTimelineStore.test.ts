import { TestDatabases } from '@backstage/backend-test-utils';
import type { DigestArrival } from '@refplat/plugin-promotions-common';
import { migratedClient } from '../database/DatabasePromotionStore';
import { DigestTimelineStore } from './DigestTimelineStore';

jest.setTimeout(60_000);

const databases = TestDatabases.create({ ids: ['POSTGRES_15', 'SQLITE_3'] });
const BRANCH = 'refplat/platform/main';
const SHOP = { team: 'alpha', product: 'shop' };

function arrival(stage: string, service: string, letter: string, commit: string, extra: Partial<DigestArrival> = {}): DigestArrival {
  return { ...SHOP, stage, service, digest: `sha256:${letter.repeat(64)}`, at: '2027-01-04T00:00:00Z', commit, ...extra };
}

/** Records a commit after the one the cursor is at, as a reader walking the branch does. */
async function record(store: DigestTimelineStore, commit: string, arrivals: DigestArrival[], gapBefore = false) {
  return store.recordCommit(BRANCH, commit, arrivals, { previous: await store.cursor(BRANCH), gapBefore });
}

describe.each(databases.eachSupportedId())('DigestTimelineStore on %p', databaseId => {
  async function createStore() {
    const knex = await databases.init(databaseId);
    return { knex, store: new DigestTimelineStore(await migratedClient({ getClient: async () => knex })) };
  }

  it('keeps the cursor with each commit, and the last digest of each Service per stage', async () => {
    const { store } = await createStore();
    expect(await store.cursor(BRANCH)).toBeUndefined();
    await record(store, 'c1', [arrival('dev', 'web', 'a', 'c1'), arrival('dev', 'api', 'b', 'c1')]);
    await record(store, 'c2', [arrival('dev', 'web', 'c', 'c2', { pullRequest: 7, promotionId: 'p7' })]);
    await record(store, 'c3', []);
    expect(await store.cursor(BRANCH)).toBe('c3');
    expect(await store.currentDigests(SHOP, 'dev')).toEqual({ web: `sha256:${'c'.repeat(64)}`, api: `sha256:${'b'.repeat(64)}` });
    expect(await store.currentDigests(SHOP, 'prod')).toEqual({});
    expect((await store.arrivals([SHOP])).map(a => [a.service, a.commit, a.pullRequest, a.promotionId])).toEqual([
      ['web', 'c1', undefined, undefined],
      ['api', 'c1', undefined, undefined],
      ['web', 'c2', 7, 'p7'],
    ]);
    await record(store, 'c4', [arrival('prod', 'web', 'a', 'c4', { at: '2027-01-05T00:00:00Z' })]);
    expect((await store.latestArrivals(SHOP)).map(a => [a.stage, a.service, a.digest[7], a.commit, a.at]).sort()).toEqual([
      ['dev', 'api', 'b', 'c1', '2027-01-04T00:00:00Z'],
      ['dev', 'web', 'c', 'c2', '2027-01-04T00:00:00Z'],
      ['prod', 'web', 'a', 'c4', '2027-01-05T00:00:00Z'],
    ]);
    expect(await store.latestArrivals({ team: 'beta', product: 'payments' })).toEqual([]);
  });

  it('records a commit that onboards a thousand Products at once (more values than one statement binds)', async () => {
    const { store } = await createStore();
    const stages = ['dev', 'test', 'uat', 'staging', 'prod'];
    const many = Array.from({ length: 1000 }, (_, i) =>
      stages.flatMap(stage =>
        ['web', 'api', 'worker'].map(service => ({ ...arrival(stage, service, 'a', 'c1', { onboarding: true }), product: `p${i}` })),
      ),
    ).flat();
    await record(store, 'c1', many);
    expect(await store.cursor(BRANCH)).toBe('c1');
    expect(await store.latestArrivals({ team: 'alpha', product: 'p999' })).toHaveLength(15);
  });

  it('lists the Products with timelines and the arrivals of only those asked for', async () => {
    const { store } = await createStore();
    const payments = { team: 'beta', product: 'payments' };
    await record(store, 'c1', [arrival('dev', 'web', 'a', 'c1'), { ...arrival('dev', 'ledger', 'b', 'c1'), ...payments }]);
    expect(await store.products()).toEqual([SHOP, payments]);
    expect((await store.arrivals([payments])).map(a => a.service)).toEqual(['ledger']);
    expect(await store.arrivals([])).toEqual([]);
  });

  it('keeps which arrivals onboarded their stage', async () => {
    const { store } = await createStore();
    await record(store, 'c1', [arrival('dev', 'web', 'a', 'c1', { onboarding: true })]);
    await record(store, 'c2', [arrival('dev', 'web', 'b', 'c2')]);
    expect((await store.arrivals([SHOP])).map(a => [a.commit, a.onboarding])).toEqual([
      ['c1', true],
      ['c2', undefined],
    ]);
    expect(await store.latestArrivals(SHOP)).toEqual([expect.not.objectContaining({ onboarding: expect.anything() })]);
  });

  it("finds the plugin's promotion behind a Product's PR", async () => {
    const { knex, store } = await createStore();
    await knex('promotions').insert({
      id: '00000000-0000-4000-8000-000000000001', team: 'alpha', product: 'shop', from_stage: 'dev', to_stage: 'test',
      services: '{}', previous_services: '{}', fingerprint: 'f', kind: 'promotion', status: 'merged',
      requested_by: 'user:default/bob', pr_number: 12, created_at: 'x', updated_at: 'x',
    });
    expect(await store.promotionOf(SHOP, 12)).toBe('00000000-0000-4000-8000-000000000001');
    expect(await store.promotionOf(SHOP, 13)).toBeUndefined();
    expect(await store.promotionOf({ team: 'beta', product: 'payments' }, 12)).toBeUndefined();
  });

  it('moves the cursor only from where the reader found it: a second reader of the same commit records nothing', async () => {
    const { store } = await createStore();
    expect(await store.recordCommit(BRANCH, 'c1', [arrival('dev', 'web', 'a', 'c1')], { previous: undefined })).toBe(true);
    expect(await store.recordCommit(BRANCH, 'c1', [arrival('dev', 'web', 'a', 'c1')], { previous: undefined })).toBe(false);
    expect(await store.recordCommit(BRANCH, 'c2', [arrival('dev', 'web', 'b', 'c2')], { previous: 'c1' })).toBe(true);
    expect(await store.recordCommit(BRANCH, 'c2', [arrival('dev', 'web', 'b', 'c2')], { previous: 'c1' })).toBe(false);
    expect((await store.arrivals([SHOP])).map(a => a.commit)).toEqual(['c1', 'c2']);
    expect(await store.cursor(BRANCH)).toBe('c2');
  });

  it("says where the unbroken history starts, and a Release record's arrivals after a point", async () => {
    const { store } = await createStore();
    expect(await store.position(BRANCH)).toBeUndefined();
    await record(store, 'c1', [arrival('dev', 'web', 'a', 'c1', { onboarding: true }), arrival('test', 'web', 'a', 'c1', { onboarding: true })]);
    await record(store, 'c2', [arrival('dev', 'web', 'b', 'c2')]);
    expect(await store.position(BRANCH)).toEqual({ cursor: 'c2', lastArrivalId: 3, completeAfterId: 0 });
    expect(await store.arrivalsAfter(SHOP, 'dev', 0)).toEqual([
      { service: 'web', digest: `sha256:${'a'.repeat(64)}`, commit: 'c1', onboarding: true },
      { service: 'web', digest: `sha256:${'b'.repeat(64)}`, commit: 'c2' },
    ]);
    expect(await store.arrivalsAfter(SHOP, 'dev', 2)).toEqual([{ service: 'web', digest: `sha256:${'b'.repeat(64)}`, commit: 'c2' }]);
    // Commits between c2 and c9 were left unread: the unbroken history starts after what came before c9.
    await record(store, 'c9', [arrival('dev', 'web', 'c', 'c9')], true);
    expect(await store.position(BRANCH)).toEqual({ cursor: 'c9', lastArrivalId: 4, completeAfterId: 3 });
    expect((await store.arrivals([SHOP])).map(a => a.commit)).toEqual(['c1', 'c1', 'c2', 'c9']);
  });

  it("keeps a Release record's timeline read from git, replacing the one read before", async () => {
    const { store } = await createStore();
    expect(await store.baseline(SHOP, 'dev')).toBeUndefined();
    await store.saveBaseline(SHOP, 'dev', { afterArrivalId: 3, timeline: [{ web: 'b' }, { web: 'a' }] });
    await store.saveBaseline(SHOP, 'dev', { afterArrivalId: 7, timeline: [{ web: 'c' }, { web: 'b' }, { web: 'a' }] });
    expect(await store.baseline(SHOP, 'dev')).toEqual({ afterArrivalId: 7, timeline: [{ web: 'c' }, { web: 'b' }, { web: 'a' }] });
    expect(await store.baseline(SHOP, 'test')).toBeUndefined();
  });
});
