import type { Diagnosis, Ladder, ProductRef } from '@refplat/plugin-promotions-common';
import { FakeDirectory, InMemoryNotificationClaimStore, ManualClock } from '@refplat/plugin-promotions-node/testUtils';
import { STUCK_CLAIM_TTL_MS, StuckNotifier } from './StuckNotifier';

const SHOP = { team: 'alpha', product: 'shop' };
const digest = (c: string) => `sha256:${c.repeat(64)}`;

const diagnosis = (state: Diagnosis['state'], code: Diagnosis['code'] = 'degraded'): Diagnosis => ({
  state,
  code,
  lastCompletedStep: 'ArgoCD synced the new Release',
  likelyCause: `${code} in a test`,
  whereToLook: [],
});

/** alpha/shop's ladder: each stage's services, with the digest each runs and its diagnosis. */
function ladder(stages: Record<string, Record<string, { digest: string; diagnosis: Diagnosis }>>): Ladder {
  return {
    ...SHOP,
    stages: Object.entries(stages).map(([name, services]) => ({ name, services })),
  } as unknown as Ladder;
}

/** One replica's notifier on a claim store replicas share; what it sends is recorded in `sent`. */
function world() {
  const clock = new ManualClock('2026-01-01T00:00:00Z');
  const claims = new InMemoryNotificationClaimStore(STUCK_CLAIM_TTL_MS);
  const directory = new FakeDirectory().setProduct(SHOP, { owners: ['group:default/alpha'] });
  const sent: Array<{ product: ProductRef; owners: string[]; stage: string; service: string; code: string }> = [];
  const replica = () =>
    new StuckNotifier({
      claims,
      owners: directory,
      clock,
      send: async (product, owners, stage, service, why) => {
        sent.push({ product, owners, stage, service, code: why.code });
      },
    });
  return { clock, sent, replica };
}

const degradedTest = ladder({
  dev: { api: { digest: digest('b'), diagnosis: diagnosis('ok', 'healthy') } },
  test: {
    api: { digest: digest('a'), diagnosis: diagnosis('stuck') },
    web: { digest: digest('a'), diagnosis: diagnosis('stuck') },
    worker: { digest: digest('a'), diagnosis: diagnosis('in-progress', 'canary-soaking') },
  },
});

describe('StuckNotifier', () => {
  it("tells the Product's owners of each stuck service once, however often it sees the stall", async () => {
    const { sent, replica } = world();
    const notifier = replica();

    await notifier.notifyStuck(degradedTest);
    await notifier.notifyStuck(degradedTest);

    expect(sent).toEqual([
      { product: expect.objectContaining(SHOP), owners: ['group:default/alpha'], stage: 'test', service: 'api', code: 'degraded' },
      { product: expect.objectContaining(SHOP), owners: ['group:default/alpha'], stage: 'test', service: 'web', code: 'degraded' },
    ]);
  });

  it('notifies a stall once when two replicas see it at once', async () => {
    const { sent, replica } = world();

    await Promise.all([replica().notifyStuck(degradedTest), replica().notifyStuck(degradedTest)]);

    expect(sent.map(n => n.service).sort()).toEqual(['api', 'web']);
  });

  it('does not notify again when the same stall is read with another cause', async () => {
    const { sent, replica } = world();
    const notifier = replica();
    await notifier.notifyStuck(degradedTest);

    await notifier.notifyStuck(
      ladder({ test: { api: { digest: digest('a'), diagnosis: diagnosis('stuck', 'rollout-aborted') } } }),
    );

    expect(sent.map(n => n.code)).toEqual(['degraded', 'degraded']);
  });

  it('notifies a new digest stuck in the same stage', async () => {
    const { sent, replica } = world();
    const notifier = replica();
    await notifier.notifyStuck(degradedTest);

    await notifier.notifyStuck(ladder({ test: { api: { digest: digest('c'), diagnosis: diagnosis('stuck') } } }));

    expect(sent.map(n => n.service)).toEqual(['api', 'web', 'api']);
  });

  it('tells the owners again when the service is still stuck a week later', async () => {
    const { clock, sent, replica } = world();
    const notifier = replica();
    await notifier.notifyStuck(degradedTest);

    clock.advance({ hours: 24 * 7 - 1 });
    await notifier.notifyStuck(degradedTest);
    expect(sent).toHaveLength(2);

    clock.advance({ minutes: 61 });
    await notifier.notifyStuck(degradedTest);
    expect(sent).toHaveLength(4);
  });
});
