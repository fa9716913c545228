import { randomUUID } from 'crypto';
import { resolvePackagePath } from '@backstage/backend-plugin-api';
import { TestDatabaseId, TestDatabases } from '@backstage/backend-test-utils';
import { DatabasePromotionStore } from './DatabasePromotionStore';
import { LIVE_STATUSES, NewPromotion, OpenPromotionConflictError } from './PromotionStore';

jest.setTimeout(60_000);

const databases = TestDatabases.create({ ids: ['POSTGRES_15', 'SQLITE_3'] });
const REJECTION_MIGRATION = '20261207000000_promotion_rejection.js';

const digest = (c: string) => `sha256:${c.repeat(64)}`;

function newPromotion(overrides: Partial<NewPromotion> = {}): NewPromotion {
  const id = randomUUID();
  return {
    id,
    team: 'alpha',
    product: 'shop',
    fromStage: 'dev',
    toStage: 'test',
    services: { storefront: digest('a') },
    previousServices: { storefront: digest('b') },
    fingerprint: 'f1',
    status: 'open',
    requestedBy: 'user:default/bob',
    branch: `promotions/alpha-shop-test-${id.slice(0, 8)}`,
    leaseExpiresAt: '2026-12-01T10:01:00.000Z',
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
  it('stores a promotion, its branch and lease before any PR, with its audit trail', async () => {
    const store = await createStore(databaseId);
    const draft = newPromotion();
    const { record } = await store.insertLive(draft, 'user:default/bob');
    expect(record).toMatchObject({
      id: draft.id,
      team: 'alpha',
      toStage: 'test',
      services: { storefront: digest('a') },
      status: 'open',
      requestedBy: 'user:default/bob',
      branch: draft.branch,
      leaseExpiresAt: '2026-12-01T10:01:00.000Z',
      pullRequest: { number: 0, url: '' },
    });
    expect((await store.findLive('alpha', 'shop', 'test'))?.id).toBe(draft.id);
    expect((await store.findByBranch(draft.branch!))?.id).toBe(draft.id);

    const merged = await store.transition(
      draft.id,
      { status: LIVE_STATUSES },
      { status: 'merged', pullRequest: { number: 7, url: 'https://x/pull/7' } },
      { type: 'merged', actor: 'promotions-gate' },
    );
    expect(merged?.pullRequest).toEqual({ number: 7, url: 'https://x/pull/7' });
    expect(await store.findLive('alpha', 'shop', 'test')).toBeUndefined();
    expect((await store.listEvents(draft.id)).map(e => e.type)).toEqual(['requested', 'merged']);
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

  it('supersedes the live promotion atomically and returns it with the PR it had', async () => {
    const store = await createStore(databaseId);
    const { record: first } = await store.insertLive(newPromotion(), 'user:default/bob');
    await store.transition(first.id, { noPullRequest: true }, { pullRequest: { number: 3, url: 'https://x/pull/3' } });
    const { record: second, superseded } = await store.insertLive(
      newPromotion({ services: { storefront: digest('c') }, fingerprint: 'f2' }),
      'user:default/alice',
      { id: first.id, reason: 'superseded' },
    );
    expect(superseded).toMatchObject({ id: first.id, status: 'closed', pullRequest: { number: 3 } });
    expect((await store.findLive('alpha', 'shop', 'test'))?.id).toBe(second.id);
    expect((await store.listEvents(first.id)).map(e => e.type)).toEqual(['requested', 'superseded']);
    const listed = (await store.listForProduct('alpha', 'shop', 10)).map(p => p.id);
    expect(listed).toHaveLength(2);
    expect(listed).toEqual(expect.arrayContaining([first.id, second.id]));
  });

  it('supersedes nothing (and records no event) when the old promotion already ended', async () => {
    const store = await createStore(databaseId);
    const { record: first } = await store.insertLive(newPromotion(), 'user:default/bob');
    await store.transition(first.id, { status: LIVE_STATUSES }, { status: 'merged' }, { type: 'merged', actor: 'github' });
    const { superseded } = await store.insertLive(newPromotion({ fingerprint: 'f2' }), 'user:default/alice', {
      id: first.id,
      reason: 'superseded',
    });
    expect(superseded).toBeUndefined();
    expect((await store.get(first.id))?.status).toBe('merged');
    expect((await store.listEvents(first.id)).map(e => e.type)).toEqual(['requested', 'merged']);
  });

  it('records a status change and its event once when replicas race for it', async () => {
    const store = await createStore(databaseId);
    const { record } = await store.insertLive(newPromotion(), 'user:default/bob');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.transition(
          record.id,
          { status: LIVE_STATUSES },
          { status: 'merged', statusReason: `replica ${i}` },
          { type: 'merged', actor: `replica-${i}` },
        ),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await store.listEvents(record.id)).filter(e => e.type === 'merged')).toHaveLength(1);
  });

  it('decides concurrent transitions one after the other, each seeing the events before it', async () => {
    const store = await createStore(databaseId);
    const { record } = await store.insertLive(newPromotion({ status: 'awaiting-approval' }), 'user:default/bob');
    const APPROVERS = 10;
    const seen: number[] = [];
    // Ten approvers at once, a quorum of ten: each counts the approvals before its own.
    const results = await Promise.all(
      Array.from({ length: APPROVERS }, (_, i) =>
        store.decideTransition(record.id, (current, events) => {
          if (current.status !== 'awaiting-approval') return undefined;
          const earlier = events.filter(e => e.type === 'approved').length;
          seen.push(earlier);
          return {
            changes: earlier + 1 === APPROVERS ? { status: 'approved' } : { statusReason: `${earlier + 1} of ${APPROVERS}` },
            event: { type: 'approved', actor: `user:default/approver-${i}`, detail: 'head' },
          };
        }),
      ),
    );
    expect(results.every(Boolean)).toBe(true);
    // Each answer is the promotion as its own decision left it: one approved it, nine did not.
    expect(results.filter(result => result?.status === 'approved')).toHaveLength(1);
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: APPROVERS }, (_, i) => i));
    expect((await store.get(record.id))?.status).toBe('approved');
    expect((await store.listEvents(record.id)).filter(e => e.type === 'approved')).toHaveLength(APPROVERS);
  });

  it('changes nothing when the decider declines, and rolls back when it throws', async () => {
    const store = await createStore(databaseId);
    const { record } = await store.insertLive(newPromotion(), 'user:default/bob');
    expect(await store.decideTransition(record.id, () => undefined)).toBeUndefined();
    await expect(
      store.decideTransition(record.id, () => {
        throw new Error('already approved');
      }),
    ).rejects.toThrow('already approved');
    expect(await store.decideTransition(randomUUID(), () => ({ changes: {}, event: { type: 'failed', actor: 'x' } }))).toBeUndefined();
    expect((await store.listEvents(record.id)).map(e => e.type)).toEqual(['requested']);
  });

  it.each([
    ['a recorded PR', { pullRequest: { number: 5, url: 'u' } }, { noPullRequest: true }],
    ['a published health state', { healthState: 'success:abc:ok' }, { healthState: null }],
    ['a verified head', { headSha: 'abc' }, { headSha: 'def' }],
    ['an approval for another head', { approvedSha: 'abc' }, { approvedSha: 'def' }],
    ['a lease still running', { leaseExpiresAt: '2026-12-01T10:01:00.000Z' }, { leaseEndedBy: '2026-12-01T10:00:00.000Z' }],
  ])('does not change a promotion with %s that the caller did not expect', async (_name, state, expected) => {
    const store = await createStore(databaseId);
    const { record } = await store.insertLive(newPromotion(), 'user:default/bob');
    expect(await store.transition(record.id, {}, state)).toBeDefined();
    const changed = await store.transition(record.id, expected, { status: 'failed' }, { type: 'failed', actor: 'x' });
    expect(changed).toBeUndefined();
    expect((await store.get(record.id))?.status).toBe('open');
    expect((await store.listEvents(record.id)).map(e => e.type)).toEqual(['requested']);
  });

  it('takes over an opening whose lease ended, and clears fields given as undefined', async () => {
    const store = await createStore(databaseId);
    const { record } = await store.insertLive(newPromotion(), 'user:default/bob');
    const adopted = await store.transition(
      record.id,
      { noPullRequest: true, leaseEndedBy: '2026-12-01T10:02:00.000Z' },
      { pullRequest: { number: 9, url: 'https://x/pull/9' }, leaseExpiresAt: undefined },
      { type: 'pr-opened', actor: 'promotions-reconciler' },
    );
    expect(adopted).toMatchObject({ pullRequest: { number: 9 }, leaseExpiresAt: undefined });
  });

  it('keeps a queued promotion queued until one opener takes it, clearing the mark and taking a lease at once', async () => {
    const store = await createStore(databaseId);
    const { record } = await store.insertLive(
      newPromotion({ leaseExpiresAt: undefined, queuedAt: '2026-12-01T10:00:00.000Z' }),
      'plugin:promotions/auto-promoter',
    );
    expect(record).toMatchObject({ queuedAt: '2026-12-01T10:00:00.000Z', leaseExpiresAt: undefined });
    const takes = await Promise.all(
      ['replica-1', 'replica-2'].map(() =>
        store.transition(
          record.id,
          { status: LIVE_STATUSES, noPullRequest: true, queued: true },
          { queuedAt: undefined, leaseExpiresAt: '2026-12-01T10:05:00.000Z' },
        ),
      ),
    );
    expect(takes.filter(Boolean)).toEqual([
      expect.objectContaining({ queuedAt: undefined, leaseExpiresAt: '2026-12-01T10:05:00.000Z' }),
    ]);
    expect(await store.get(record.id)).toMatchObject({ queuedAt: undefined });
  });

  it('keeps who rejected a promotion and why, and clears it when the promotion turns out merged', async () => {
    const store = await createStore(databaseId);
    const { record } = await store.insertLive(newPromotion(), 'user:default/bob');
    const rejection = { by: 'user:default/alice', reason: 'Not during the audit freeze' };
    const rejected = await store.transition(
      record.id,
      {},
      { status: 'closed', statusReason: 'Rejected by Alice Approver: Not during the audit freeze', rejection },
      { type: 'rejected', actor: rejection.by, detail: rejection.reason },
    );
    expect(rejected?.rejection).toEqual(rejection);
    expect((await store.listForProduct('alpha', 'shop', 5))[0].rejection).toEqual(rejection);
    const merged = await store.transition(record.id, { status: ['closed'] }, { status: 'merged', rejection: undefined });
    expect(merged?.rejection).toBeUndefined();
  });

  it('gives promotions rejected before the rejection column theirs, from the audit trail', async () => {
    const knex = await databases.init(databaseId);
    const directory = resolvePackagePath('@refplat/plugin-promotions-backend', 'migrations');
    // The database as it was before the rejection column.
    const pending: { file: string }[] = (await knex.migrate.list({ directory }))[1];
    const before = pending.map(migration => migration.file).filter(file => file < REJECTION_MIGRATION);
    for (const name of before.sort()) await knex.migrate.up({ directory, name });
    const store = new DatabasePromotionStore(knex);
    const { record } = await store.insertLive(newPromotion({ toStage: 'prod' }), 'user:default/bob');
    await knex('promotions').where({ id: record.id }).update({ status: 'closed', open_key: null });
    await knex('promotion_events').insert({
      promotion_id: record.id,
      type: 'rejected',
      actor: 'user:default/alice',
      at: '2026-12-01T10:00:00.000Z',
      detail: 'cart 2.3 breaks checkout',
    });
    const { record: live } = await store.insertLive(newPromotion(), 'user:default/bob');

    await knex.migrate.latest({ directory });
    expect((await store.get(record.id))?.rejection).toEqual({ by: 'user:default/alice', reason: 'cart 2.3 breaks checkout' });
    expect((await store.get(live.id))?.rejection).toBeUndefined();
  });
});
