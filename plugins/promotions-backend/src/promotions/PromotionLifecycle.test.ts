import { InMemoryPromotionStore } from '@refplat/plugin-promotions-node/testUtils';
import { NewPromotion } from '../database/PromotionStore';
import { applyLifecycleEvent, decideLifecycleEvent } from './PromotionLifecycle';

const BOB = 'user:default/bob';

/** A promotion into uat, recorded as `how` says: being opened, or queued. */
async function recorded(how: Partial<NewPromotion> = {}) {
  const store = new InMemoryPromotionStore();
  const { record } = await store.insertLive(
    {
      id: 'p1',
      team: 'alpha',
      product: 'shop',
      fromStage: 'dev',
      toStage: 'uat',
      services: { api: 'sha256:b' },
      fingerprint: 'fp',
      status: 'open',
      requestedBy: BOB,
      leaseExpiresAt: '2026-01-01T00:01:00.000Z',
      ...how,
    },
    BOB,
  );
  return { store, record };
}

const PR = { number: 7, url: 'https://github.example/pull/7' };

describe('applyLifecycleEvent', () => {
  it("moves the promotion to the event's status, with its changes and its audit line", async () => {
    const { store } = await recorded({ status: 'awaiting-approval' });
    await applyLifecycleEvent(store, 'p1', 'pull-request-opened', { changes: { pullRequest: PR, headSha: 'h1' } });

    const rejected = await applyLifecycleEvent(store, 'p1', 'rejected', {
      changes: { statusReason: 'Rejected by Carol: not now' },
      audit: { type: 'rejected', actor: 'user:default/carol', detail: 'not now' },
    });

    expect(rejected).toMatchObject({ status: 'closed', statusReason: 'Rejected by Carol: not now', pullRequest: PR });
    expect((await store.listEvents('p1')).map(event => event.type)).toEqual(['requested', 'rejected']);
  });

  it('leaves the status as it is for an event that does not change it', async () => {
    const { store } = await recorded({ status: 'awaiting-approval' });

    expect(await applyLifecycleEvent(store, 'p1', 'pull-request-opened', { changes: { pullRequest: PR } })).toMatchObject({
      status: 'awaiting-approval',
      pullRequest: PR,
    });
  });

  it('changes nothing, and records nothing, in a status the event cannot happen in', async () => {
    const { store } = await recorded();

    expect(
      await applyLifecycleEvent(store, 'p1', 'rejected', { audit: { type: 'rejected', actor: BOB, detail: 'no' } }),
    ).toBeUndefined();
    expect(await store.get('p1')).toMatchObject({ status: 'open' });
    expect((await store.listEvents('p1')).map(event => event.type)).toEqual(['requested']);
  });

  it('checks the fields the caller read besides', async () => {
    const { store } = await recorded();
    await applyLifecycleEvent(store, 'p1', 'pull-request-opened', { changes: { pullRequest: PR, headSha: 'h1' } });

    expect(await applyLifecycleEvent(store, 'p1', 'head-accepted', { expected: { headSha: 'h0' }, changes: { headSha: 'h2' } })).toBeUndefined();
    expect(await applyLifecycleEvent(store, 'p1', 'head-accepted', { expected: { headSha: 'h1' }, changes: { headSha: 'h2' } })).toMatchObject({
      headSha: 'h2',
    });
  });

  it.each([
    // event, how it was recorded, whether it happens
    ['taken-from-queue', 'queued', true],
    ['taken-from-queue', 'opening', false],
    ['taken-from-queue', 'with its PR', false],
    ['returned-to-queue', 'queued', false],
    ['returned-to-queue', 'opening', true],
    ['returned-to-queue', 'with its PR', false],
    ['opening-failed', 'queued', true],
    ['opening-failed', 'opening', true],
    ['opening-failed', 'with its PR', false],
  ] as const)('%s a promotion %s: %p', async (event, phase, happens) => {
    const { store } = await recorded(phase === 'queued' ? { leaseExpiresAt: undefined, queuedAt: '2026-01-01T00:00:00.000Z' } : {});
    if (phase === 'with its PR') await applyLifecycleEvent(store, 'p1', 'pull-request-opened', { changes: { pullRequest: PR } });

    expect(Boolean(await applyLifecycleEvent(store, 'p1', event))).toBe(happens);
  });
});

describe('decideLifecycleEvent', () => {
  it('records the decided event with the status its rule leaves', async () => {
    const { store } = await recorded({ status: 'awaiting-approval' });

    const approved = await decideLifecycleEvent(store, 'p1', ['approval-counted', 'approved'], (_current, events) => ({
      event: events.length ? 'approved' : 'approval-counted',
      changes: { approvedBy: BOB },
      audit: { type: 'approved', actor: BOB, detail: 'h1' },
    }));

    expect(approved).toMatchObject({ status: 'approved', approvedBy: BOB });
  });

  it('does not ask `decide` when the promotion is in a state none of the candidates can happen in', async () => {
    const { store } = await recorded();
    const decide = jest.fn();

    expect(await decideLifecycleEvent(store, 'p1', ['approval-counted', 'approved'], decide)).toBeUndefined();
    expect(decide).not.toHaveBeenCalled();
  });
});
