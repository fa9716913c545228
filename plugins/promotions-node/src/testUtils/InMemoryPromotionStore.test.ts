import { OpenPromotionConflictError, NewPromotion } from '@refplat/plugin-promotions-node';
import { InMemoryPromotionStore } from './InMemoryPromotionStore';
import { ManualClock } from './ManualClock';
import { promotionStoreContract } from './promotionStoreContract';

const promotion = (id: string, toStage = 'uat'): NewPromotion => ({
  id,
  team: 'alpha',
  product: 'shop',
  fromStage: 'dev',
  toStage,
  services: { api: 'sha256:a' },
  fingerprint: `f-${id}`,
  status: 'open',
  requestedBy: 'user:default/alice',
  branch: `promotions/${id}`,
  leaseExpiresAt: '2026-01-01T00:01:00.000Z',
});

function storeAt() {
  const clock = new ManualClock('2026-01-01T00:00:00Z');
  return { clock, store: new InMemoryPromotionStore({ clock }) };
}

describe('InMemoryPromotionStore', () => {
  describe('the store contract', () => {
    promotionStoreContract(async () => new InMemoryPromotionStore());
  });

  it('keeps one live promotion per target stage, superseding atomically', async () => {
    const { store, clock } = storeAt();
    const { record } = await store.insertLive(promotion('p1'), 'alice');
    expect(record).toMatchObject({ status: 'open', pullRequest: { number: 0 }, createdAt: '2026-01-01T00:00:00.000Z' });
    await expect(store.insertLive(promotion('p2'), 'bob')).rejects.toBeInstanceOf(OpenPromotionConflictError);
    expect(await store.get('p2')).toBeUndefined();

    clock.advance({ seconds: 1 });
    const { superseded } = await store.insertLive(promotion('p2'), 'bob', { id: 'p1', reason: 'newer' });
    expect(superseded).toMatchObject({ id: 'p1', status: 'closed', statusReason: 'newer' });
    expect((await store.listLive()).map(p => p.id)).toEqual(['p2']);
    expect((await store.findLive('alpha', 'shop', 'uat'))?.id).toBe('p2');
    expect((await store.listForProduct('alpha', 'shop', 10)).map(p => p.id)).toEqual(['p2', 'p1']);
    expect((await store.listEvents('p1')).map(e => e.type)).toEqual(['requested', 'superseded']);
  });

  it('lets one opener take a queued promotion, clearing the mark as it takes a lease', async () => {
    const { store } = storeAt();
    await store.insertLive({ ...promotion('p1'), leaseExpiresAt: undefined, queuedAt: '2026-01-01T00:00:00.000Z' }, 'auto');
    const take = () => store.transition('p1', { noPullRequest: true, queued: true }, { queuedAt: undefined, leaseExpiresAt: '2026-01-01T00:05:00.000Z' });
    expect(await take()).toMatchObject({ queuedAt: undefined, leaseExpiresAt: '2026-01-01T00:05:00.000Z' });
    expect(await take()).toBeUndefined();
    expect(await store.transition('p1', { queued: false }, { statusReason: 'taken' })).toMatchObject({ statusReason: 'taken' });
  });

  it('transitions by compare-and-set, clearing a field given as undefined', async () => {
    const { store, clock } = storeAt();
    await store.insertLive(promotion('p1'), 'alice');
    expect(await store.transition('p1', { status: ['open'], noPullRequest: true, leaseEndedBy: '2026-01-01T00:00:30.000Z' }, {})).toBeUndefined();
    const recorded = await store.transition(
      'p1',
      { status: ['open'], noPullRequest: true, headSha: null },
      { pullRequest: { number: 7, url: 'u' }, headSha: 'h1', leaseExpiresAt: undefined },
      { type: 'pr-opened', actor: 'alice' },
    );
    expect(recorded).toMatchObject({ pullRequest: { number: 7 }, headSha: 'h1', leaseExpiresAt: undefined });
    expect(await store.transition('p1', { noPullRequest: true }, { status: 'failed' })).toBeUndefined();
    expect(await store.transition('p1', { headSha: 'other' }, { status: 'failed' })).toBeUndefined();
    clock.advance({ minutes: 1 });
    const merged = await store.transition('p1', { headSha: 'h1' }, { status: 'merged' }, { type: 'merged', actor: 'gate' });
    expect(merged).toMatchObject({ status: 'merged', updatedAt: '2026-01-01T00:01:00.000Z' });
    expect(await store.listLive()).toEqual([]);
    expect((await store.findByBranch('promotions/p1'))?.id).toBe('p1');
    expect((await store.listEvents('p1')).map(e => [e.type, e.at])).toEqual([
      ['requested', '2026-01-01T00:00:00.000Z'],
      ['pr-opened', '2026-01-01T00:00:00.000Z'],
      ['merged', '2026-01-01T00:01:00.000Z'],
    ]);
  });

  it('decides a transition from the promotion and its trail, and hands out copies', async () => {
    const { store } = storeAt();
    await store.insertLive(promotion('p1'), 'alice');
    expect(await store.decideTransition('p1', () => undefined)).toBeUndefined();
    const decided = await store.decideTransition('p1', (current, events) => ({
      changes: { statusReason: `${current.status} after ${events.length}` },
      event: { type: 'approved', actor: 'bob' },
    }));
    expect(decided?.statusReason).toBe('open after 1');
    decided!.services.api = 'changed';
    expect((await store.get('p1'))!.services.api).toBe('sha256:a');
  });
});
