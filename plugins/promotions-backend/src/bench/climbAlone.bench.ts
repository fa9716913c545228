import { ChildProcess } from 'child_process';
import type { JsonObject } from '@backstage/types';
import { GITHUB_WRITE_BUDGET } from '@refplat/plugin-promotions-common';
import { machine, write } from '../__testUtils__/benchResults';
import { eventually, simConfig } from '../__testUtils__/testBackend';
import { decideInChildProcess } from '../promotions/__testUtils__/decideInChildProcess';
import { addManyProducts } from './manyProducts';
import { SimInChildProcess, startOrgScaleSim } from './simProcess';

/**
 * Benchmark, not a test (`npm run bench`): issue 48's memory through a whole
 * climb, on the plugin's own process. BENCH_IDLE_PRODUCTS (default 9,900)
 * idle and BENCH_CLIMBING (default 100) climbing Products, a new storefront
 * digest running healthy in every climbing Product's dev; then the plugin,
 * alone in a Node process (decideAtScale.ts: composed as the backend
 * composes it, Backstage's in-memory cache, SQLite in memory, no Jest), runs
 * the auto-promoter cold, drains the write queue and runs the Gate until
 * every promotion settled. The simulator, in a process of its own, enforces
 * GitHub's secondary write limit. Written to
 * test-results/bench/climb-alone-<products>.json: the promotions and how
 * they settled, the run's and the climb's times, and the plugin process's
 * peak resident memory (the kernel's ru_maxrss). BENCH_FLEET=<n> climbs in
 * fleet mode.
 */
const IDLE_PRODUCTS = Number(process.env.BENCH_IDLE_PRODUCTS ?? 9_900);
const CLIMBING = Number(process.env.BENCH_CLIMBING ?? 100);
const FLEET = process.env.BENCH_FLEET ? { enabled: true, maxProducts: Number(process.env.BENCH_FLEET) } : undefined;
/** The plugin's heap limit: a pod of 1 GiB would set about this. */
const HEAP_LIMIT_MB = 1024;
/** A promotion's GitHub writes on a repository that keeps head branches (docs/cost.md). */
const WRITES_PER_PROMOTION = 5;
/** GitHub's 500 writes an hour at 5 writes per promotion: 100 promotions fit in one hour. */
const CLIMB_WITHIN_MS = 3_600_000;

jest.setTimeout(CLIMB_WITHIN_MS + 1_800_000);

describe('the plugin alone through a climb at organisation scale', () => {
  let sim: SimInChildProcess | undefined;
  let plugin: ChildProcess | undefined;

  afterAll(async () => {
    if (plugin?.exitCode === null) plugin.kill();
    await sim?.stop();
  });

  it(`climbs ${CLIMBING} of ${IDLE_PRODUCTS + CLIMBING} Products in a process of its own, its peak resident memory recorded`, async () => {
    sim = await startOrgScaleSim();
    addManyProducts(sim.repoDir, IDLE_PRODUCTS);
    const climbing = Array.from({ length: CLIMBING }, (_, n) => `shop-${n + 1}`);
    for (const product of climbing) await sim.control.addProduct({ like: 'alpha/shop', product });
    const pushed: Record<string, string> = {};
    for (const product of climbing) {
      pushed[product] = (await sim.control.ciPush({ team: 'alpha', product, service: 'storefront' })).digest;
    }
    await eventually(async () => {
      const { apps } = await sim!.control.getState();
      const ready = climbing.every(product => {
        const app = apps.find(candidate => candidate.name === `alpha-${product}-dev`);
        return app?.healthStatus === 'Healthy' && app.syncStatus === 'Synced' && app.images.some(image => image.endsWith(pushed[product]));
      });
      return ready || undefined;
    }, 1_200_000);

    const base = simConfig(sim, 'argocd');
    const promotions = base.promotions as JsonObject;
    // GitHub's write budget and octokit's pacing, as the plugin keeps them by default (the tests' config turns both down).
    const { writePacing: _testPacing, ...platformRepo } = promotions.platformRepo as JsonObject;
    const rootConfig = {
      ...base,
      promotions: {
        ...promotions,
        platformRepo: { ...platformRepo, writeBudget: GITHUB_WRITE_BUDGET },
        ...(FLEET ? { autoPromote: { fleet: FLEET } } : {}),
      },
    };
    const outcome = await decideInChildProcess({ rootConfig, repoDir: sim.repoDir, climbWithinMs: CLIMB_WITHIN_MS }, HEAP_LIMIT_MB, child => {
      plugin = child;
    });
    const refused = (await sim.control.getRequests()).filter(
      call => call.target === 'github' && call.method !== 'GET' && (call.status === 403 || call.status === 429),
    ).length;
    write(`climb-alone-${IDLE_PRODUCTS + CLIMBING}${FLEET ? `-fleet${FLEET.maxProducts}` : ''}.json`, {
      machine: machine(),
      climbing: CLIMBING,
      heapLimitMb: HEAP_LIMIT_MB,
      fleet: FLEET ?? { enabled: false },
      refusedForSecondaryLimit: refused,
      ...outcome,
    });
    // The seeded alpha/shop climbs too (its dev is ahead of test); GitHub's hour holds 100 promotions'
    // 5 writes each, so a 101st may still wait for the next hour's budget when the hour ends.
    const climb = outcome.climb!;
    expect(climb.queued).toBeGreaterThanOrEqual(CLIMBING);
    expect(climb.merged).toBeGreaterThanOrEqual(Math.min(climb.queued, Math.floor(GITHUB_WRITE_BUDGET.perHour / WRITES_PER_PROMOTION)));
    expect(climb.closed + climb.failed).toBe(0);
    expect(outcome.peakRssMb).toBeLessThan(HEAP_LIMIT_MB);
    expect(refused).toBe(0);
  });
});
