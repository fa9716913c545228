import { TestDatabases } from '@backstage/backend-test-utils';
import type { AutoDecision } from '@refplat/plugin-promotions-common';
import { DatabaseAutoDecisionStore } from './AutoDecisionStore';
import { DatabasePromotionStore } from './DatabasePromotionStore';

jest.setTimeout(60_000);

const databases = TestDatabases.create({ ids: ['SQLITE_3'] });

const SHOP = { team: 'alpha', product: 'shop' };
const CART = { team: 'beta', product: 'cart' };
const at = (minute: number) => new Date(Date.UTC(2026, 11, 1, 10, minute));
const skip = (reason: string): AutoDecision => ({
  fromStage: 'dev',
  toStage: 'test',
  service: 'api',
  decision: 'skip',
  reason,
});

async function createStore() {
  const knex = await databases.init('SQLITE_3');
  await DatabasePromotionStore.create({
    getClient: async () => knex,
    migrations: { skip: false },
  });
  return {
    store: new DatabaseAutoDecisionStore(knex),
    rows: async () =>
      Number((await knex('auto_promotion_decisions').count({ n: '*' }))[0].n),
  };
}

describe('DatabaseAutoDecisionStore', () => {
  it("keeps only each Product's latest run: runs every few minutes over many Products do not grow the table", async () => {
    const { store, rows } = await createStore();
    for (let run = 0; run < 5; run++) {
      await store.record(
        `run-${run}`,
        SHOP,
        [skip(`soaking ${run}`), { ...skip('held'), service: 'web' }],
        at(run),
      );
      await store.record(`run-${run}`, CART, [skip(`cart ${run}`)], at(run));
    }

    expect(await rows()).toBe(3);
    expect(await store.latest(SHOP)).toEqual([
      expect.objectContaining({
        runId: 'run-4',
        reason: 'soaking 4',
        decidedAt: at(4).toISOString(),
      }),
      expect.objectContaining({
        runId: 'run-4',
        reason: 'held',
        service: 'web',
      }),
    ]);
    expect(await store.latest(CART)).toEqual([
      expect.objectContaining({ runId: 'run-4', reason: 'cart 4' }),
    ]);
  });

  it('keeps the last decisions when a run has none for the Product', async () => {
    const { store } = await createStore();
    await store.record('run-0', SHOP, [skip('soaking')], at(0));
    await store.record('run-1', SHOP, [], at(1));

    expect(await store.latest(SHOP)).toEqual([
      expect.objectContaining({ runId: 'run-0', reason: 'soaking' }),
    ]);
  });
});
