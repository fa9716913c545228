import { randomUUID } from 'node:crypto';
import { LIVE_PROMOTION_STATUSES } from '@refplat/plugin-promotions-common';
import {
  NewPromotion,
  OpenPromotionConflictError,
  PromotionChanges,
  PromotionExpectation,
  PromotionStore,
} from '../ports/PromotionStore';

const LIVE = [...LIVE_PROMOTION_STATUSES];
const digest = (c: string) => `sha256:${c.repeat(64)}`;

/**
 * A promotion of alpha/shop from dev into test, about to be recorded with its branch and lease:
 * the contract's, and a store's own tests'.
 *
 * @public
 */
export function newPromotionDraft(overrides: Partial<NewPromotion> = {}): NewPromotion {
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

/**
 * What every PromotionStore promises, as Jest tests: one live promotion per
 * target stage, an atomic supersede, compare-and-set on each expectation,
 * transitions decided one at a time from the trail. Call it inside a
 * `describe` with a factory of empty stores; the plugin runs it against its
 * database store (SQLite and PostgreSQL) and the in-memory fake, and an
 * adopter's own store can run it too.
 *
 * @public
 */
export function promotionStoreContract(emptyStore: () => Promise<PromotionStore>): void {
  it('stores a promotion, its branch and lease before any PR, with its audit trail', async () => {
    const store = await emptyStore();
    const draft = newPromotionDraft();
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
      { status: LIVE },
      { status: 'merged', pullRequest: { number: 7, url: 'https://x/pull/7' } },
      { type: 'merged', actor: 'promotions-gate' },
    );
    expect(merged?.pullRequest).toEqual({ number: 7, url: 'https://x/pull/7' });
    expect(await store.findLive('alpha', 'shop', 'test')).toBeUndefined();
    expect(await store.listLive()).toEqual([]);
    expect((await store.findByBranch(draft.branch!))?.id).toBe(draft.id);
    expect((await store.listEvents(draft.id)).map(e => e.type)).toEqual(['requested', 'merged']);
  });

  it('allows one live promotion per target stage, even when inserted concurrently', async () => {
    const store = await emptyStore();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => store.insertLive(newPromotionDraft(), 'user:default/bob')),
    );
    expect(results.filter(r => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter(r => r.status === 'rejected' && r.reason instanceof OpenPromotionConflictError)).toHaveLength(19);
    expect(await store.listLive()).toHaveLength(1);
    // Another stage of the Product is another target.
    await expect(store.insertLive(newPromotionDraft({ toStage: 'prod' }), 'user:default/bob')).resolves.toBeDefined();
  });

  it('supersedes the live promotion atomically and returns it with the PR it had', async () => {
    const store = await emptyStore();
    const { record: first } = await store.insertLive(newPromotionDraft(), 'user:default/bob');
    await store.transition(first.id, { noPullRequest: true }, { pullRequest: { number: 3, url: 'https://x/pull/3' } });
    const { record: second, superseded } = await store.insertLive(
      newPromotionDraft({ services: { storefront: digest('c') }, fingerprint: 'f2' }),
      'user:default/alice',
      { id: first.id, reason: 'superseded' },
    );
    expect(superseded).toMatchObject({ id: first.id, status: 'closed', statusReason: 'superseded', pullRequest: { number: 3 } });
    expect((await store.findLive('alpha', 'shop', 'test'))?.id).toBe(second.id);
    expect((await store.listEvents(first.id)).map(e => e.type)).toEqual(['requested', 'superseded']);
    const listed = (await store.listForProduct('alpha', 'shop', 10)).map(p => p.id);
    expect(listed).toHaveLength(2);
    expect(listed).toEqual(expect.arrayContaining([first.id, second.id]));
  });

  it('supersedes nothing (and records no event) when the old promotion already ended', async () => {
    const store = await emptyStore();
    const { record: first } = await store.insertLive(newPromotionDraft(), 'user:default/bob');
    await store.transition(first.id, { status: LIVE }, { status: 'merged' }, { type: 'merged', actor: 'github' });
    const { superseded } = await store.insertLive(newPromotionDraft({ fingerprint: 'f2' }), 'user:default/alice', {
      id: first.id,
      reason: 'superseded',
    });
    expect(superseded).toBeUndefined();
    expect((await store.get(first.id))?.status).toBe('merged');
    expect((await store.listEvents(first.id)).map(e => e.type)).toEqual(['requested', 'merged']);
  });

  it('records a status change and its event once when replicas race for it', async () => {
    const store = await emptyStore();
    const { record } = await store.insertLive(newPromotionDraft(), 'user:default/bob');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.transition(
          record.id,
          { status: LIVE },
          { status: 'merged', statusReason: `replica ${i}` },
          { type: 'merged', actor: `replica-${i}` },
        ),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await store.listEvents(record.id)).filter(e => e.type === 'merged')).toHaveLength(1);
  });

  it('decides concurrent transitions one after the other, each seeing the events before it', async () => {
    const store = await emptyStore();
    const { record } = await store.insertLive(newPromotionDraft({ status: 'awaiting-approval' }), 'user:default/bob');
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

  it('changes nothing when the decider declines or throws, or the promotion is unknown', async () => {
    const store = await emptyStore();
    const { record } = await store.insertLive(newPromotionDraft(), 'user:default/bob');
    expect(await store.decideTransition(record.id, () => undefined)).toBeUndefined();
    await expect(
      store.decideTransition(record.id, () => {
        throw new Error('already approved');
      }),
    ).rejects.toThrow('already approved');
    expect(await store.decideTransition(randomUUID(), () => ({ changes: {}, event: { type: 'failed', actor: 'x' } }))).toBeUndefined();
    expect(await store.get(record.id)).toMatchObject({ status: 'open' });
    expect((await store.listEvents(record.id)).map(e => e.type)).toEqual(['requested']);
  });

  it.each<[string, PromotionChanges, PromotionExpectation]>([
    ['a recorded PR', { pullRequest: { number: 5, url: 'u' } }, { noPullRequest: true }],
    ['a published health state', { healthState: { state: 'success', sha: 'abc', description: 'dev: ok: all 3' } }, { healthState: null }],
    ['a verified head', { headSha: 'abc' }, { headSha: 'def' }],
    ['an approval for another head', { approvedSha: 'abc' }, { approvedSha: 'def' }],
    [
      'published guard verdicts',
      { guardState: { freeze: { state: 'failure', sha: 'abc', description: 'frozen' }, board: { state: 'success', sha: 'abc', description: 'ok' } } },
      { guardState: null },
    ],
    ['a lease still running', { leaseExpiresAt: '2026-12-01T10:01:00.000Z' }, { leaseEndedBy: '2026-12-01T10:00:00.000Z' }],
    ['no place in the queue', {}, { queued: true }],
    ['another status', {}, { status: ['awaiting-approval'] }],
  ])('does not change a promotion with %s that the caller did not expect', async (_name, state, expected) => {
    const store = await emptyStore();
    const { record } = await store.insertLive(newPromotionDraft(), 'user:default/bob');
    expect(await store.transition(record.id, {}, state)).toBeDefined();
    const changed = await store.transition(record.id, expected, { status: 'failed' }, { type: 'failed', actor: 'x' });
    expect(changed).toBeUndefined();
    expect((await store.get(record.id))?.status).toBe('open');
    expect((await store.listEvents(record.id)).map(e => e.type)).toEqual(['requested']);
  });

  it('keeps published verdicts whole, and matches them equal in every field whatever order they were given in', async () => {
    const store = await emptyStore();
    const { record } = await store.insertLive(newPromotionDraft(), 'user:default/bob');
    const health = { state: 'failure', sha: 'abc', description: 'dev not ready: api: api is progressing' } as const;
    const guards = {
      freeze: { state: 'failure', sha: 'abc', description: 'Quiet week: 2026-12-01 – 2026-12-08' },
      board: { state: 'success', sha: 'abc', description: 'ok' },
    } as const;
    await store.transition(record.id, {}, { healthState: health, guardState: guards });
    expect(await store.get(record.id)).toMatchObject({ healthState: health, guardState: guards });

    const reordered = {
      healthState: { description: health.description, sha: 'abc', state: 'failure' },
      guardState: { board: { sha: 'abc', state: 'success', description: 'ok' }, freeze: guards.freeze },
    } as const;
    expect(await store.transition(record.id, reordered, { statusReason: 'matched' })).toMatchObject({ statusReason: 'matched' });
    expect(await store.transition(record.id, { healthState: { ...health, description: 'dev not ready' } }, { statusReason: 'x' })).toBeUndefined();
  });

  it('changes a promotion that meets every expectation, clearing fields given as undefined', async () => {
    const store = await emptyStore();
    const { record } = await store.insertLive(newPromotionDraft(), 'user:default/bob');
    const waiting = { state: 'pending', sha: 'abc', description: 'waiting' } as const;
    await store.transition(record.id, {}, { headSha: 'abc', healthState: waiting });
    const adopted = await store.transition(
      record.id,
      { status: ['open'], noPullRequest: true, leaseEndedBy: '2026-12-01T10:02:00.000Z', queued: false, headSha: 'abc', healthState: waiting, approvedSha: null },
      { pullRequest: { number: 9, url: 'https://x/pull/9' }, leaseExpiresAt: undefined, healthState: undefined },
      { type: 'pr-opened', actor: 'promotions-reconciler' },
    );
    expect(adopted).toMatchObject({ pullRequest: { number: 9 }, headSha: 'abc', leaseExpiresAt: undefined, healthState: undefined });
    expect((await store.listEvents(record.id)).map(e => e.type)).toEqual(['requested', 'pr-opened']);
  });

  it('keeps a queued promotion queued until one opener takes it, clearing the mark and taking a lease at once', async () => {
    const store = await emptyStore();
    const { record } = await store.insertLive(
      newPromotionDraft({ leaseExpiresAt: undefined, queuedAt: '2026-12-01T10:00:00.000Z' }),
      'plugin:promotions/auto-promoter',
    );
    expect(record).toMatchObject({ queuedAt: '2026-12-01T10:00:00.000Z', leaseExpiresAt: undefined });
    const takes = await Promise.all(
      ['replica-1', 'replica-2'].map(() =>
        store.transition(
          record.id,
          { status: LIVE, noPullRequest: true, queued: true },
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
    const store = await emptyStore();
    const { record } = await store.insertLive(newPromotionDraft(), 'user:default/bob');
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

  it('hands out copies: changing an answer changes nothing stored', async () => {
    const store = await emptyStore();
    const { record } = await store.insertLive(newPromotionDraft(), 'user:default/bob');
    record.services.storefront = 'changed';
    (await store.get(record.id))!.services.storefront = 'changed too';
    expect((await store.get(record.id))!.services.storefront).toBe(digest('a'));
  });
}
