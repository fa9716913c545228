import fs from 'fs';
import path from 'path';
import { ConfigReader } from '@backstage/config';
import { mockServices } from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { RunningSim, startPlatformSim } from '@refplat/platform-sim';
import { migratedClient } from '../database/DatabasePromotionStore';
import { createPromotionsServices } from '../service/createServices';
import { simConfig } from '../__testUtils__/testBackend';
import { addManyProducts } from './manyProducts';
import Knex from 'knex';

/**
 * Benchmark, not a test (`npm run bench`): the cost of an auto-promoter run
 * over 1,000 Products when nothing changed, counted in the simulator.
 */
const describeBench = process.env.BENCH ? describe : describe.skip;
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 1000);
const RESULTS = path.resolve(__dirname, '../../../../test-results/bench');

jest.setTimeout(900_000);

describeBench(`auto-promoter over ${PRODUCTS} products`, () => {
  let sim: RunningSim;

  beforeAll(async () => {
    // A cold run reads every file once: 10 per Product, more than GitHub's
    // 5,000 requests an hour for 1,000 Products (see the README).
    // The simulated ArgoCD does not look at the added Products during the
    // benchmark (its loop would canary 5,000 new Applications): their
    // Applications are absent, so health reads cost one list call per run.
    sim = await startPlatformSim({ reconcileIntervalMs: 3_600_000, rateLimit: 100_000 });
    addManyProducts(sim.repoDir, PRODUCTS);
  });

  afterAll(async () => {
    await sim?.stop();
  });

  it('costs a handful of upstream requests when nothing changed', async () => {
    const rootConfig = new ConfigReader(simConfig(sim, 'argocd'));
    const logger = mockServices.logger.mock();
    const cache = mockServices.cache.mock();
    const memory = new Map<string, unknown>();
    cache.get.mockImplementation(async (key: string) => memory.get(key) as any);
    cache.set.mockImplementation(async (key: string, value: unknown) => {
      memory.set(key, value);
    });
    const db = Knex({ client: 'better-sqlite3', connection: ':memory:', useNullAsDefault: true });
    const { autoPromoter } = createPromotionsServices({
      rootConfig,
      cache,
      db: await migratedClient({ getClient: async () => db }),
      logger,
      catalog: catalogServiceMock(),
      auth: mockServices.auth(),
      permissions: mockServices.permissions(),
    });

    const measure = async () => {
      sim.control.clearRequests();
      const started = performance.now();
      const run = await autoPromoter.run();
      const ms = Math.round(performance.now() - started);
      const calls = sim.control.getRequests();
      return {
        products: run.products,
        ms,
        github: calls.filter(c => c.target === 'github').length,
        github304: calls.filter(c => c.target === 'github' && c.status === 304).length,
        argocd: calls.filter(c => c.target === 'argocd').length,
        opened: run.opened.length,
        githubCalls: calls
          .filter(c => c.target === 'github')
          .slice(0, 5)
          .map(c => `${c.method} ${c.path} ${c.status}`),
      };
    };

    const cold = await measure();
    // The cold run's one auto-promotion (alpha/shop dev → test) merges at
    // once through the Gate: main moves, and the next run re-reads only
    // what changed.
    await new Promise(resolve => setTimeout(resolve, 3000));
    const afterOneMerge = await measure();
    const unchanged = await measure();
    const result = { cold, afterOneMerge, unchanged };
    fs.mkdirSync(RESULTS, { recursive: true });
    fs.writeFileSync(path.join(RESULTS, 'auto-promoter.json'), `${JSON.stringify(result, null, 2)}\n`);
    // eslint-disable-next-line no-console
    console.log(JSON.stringify(result, null, 2));
    expect(unchanged.products).toBe(PRODUCTS + 2);
    expect(unchanged.github).toBeLessThanOrEqual(2);
    expect(unchanged.argocd).toBe(1);
  });
});
