import { execFileSync } from 'child_process';
import Knex from 'knex';
import { GITHUB_WRITE_BUDGET } from '@refplat/plugin-promotions-common';
import { FakeHealthSource } from '@refplat/plugin-promotions-node/testUtils';
import { GITHUB_WRITE_LIMITS } from '@refplat/platform-sim';
import { costServices } from '../__testUtils__/githubCost';
import { machine, write } from '../__testUtils__/benchResults';
import { eventually } from '../__testUtils__/testBackend';
import { asBulkWork } from '../github/WriteBudget';
import { addedProductDigests, addManyProducts, builtWebDigest, newWebInEveryDev } from './manyProducts';
import { SimInChildProcess, startOrgScaleSim } from './simProcess';

/**
 * Benchmark, not a test (`npm run bench`): issue 48's fleet-wide rebuild. BENCH_PRODUCTS
 * Products (default 1,000), every one with a new web digest in dev (one commit, a base-image
 * fix rebuilt across the fleet), running it healthy; one auto-promoter run in fleet mode
 * (BENCH_FLEET Products per PR, default 50), the write queue and the Gate until every
 * promotion into test settled. GitHub is the simulator in a process of its own, enforcing
 * GitHub's secondary write limit (80 a minute, 500 an hour); the plugin keeps its write budget
 * and octokit's pacing. Health comes from an in-memory ArgoCD (FakeHealthSource: an
 * Application per Product and stage, running its Release's digests, Synced and Healthy): the
 * simulator's ArgoCD would reconcile and canary 5,000 Applications in the bench's time. What
 * it measures is GitHub's side: writes and charged reads per promotion, writes refused, and
 * the time until the last merge. Written to test-results/bench/fleet-climb-<products>.json.
 */
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 1_000);
const FLEET = { enabled: true, maxProducts: Number(process.env.BENCH_FLEET ?? 50) };
const STAGES = ['dev', 'test', 'uat', 'staging', 'prod'];
/** Issue 48: 1,000 climbing reach test within an hour. */
const WITHIN_MS = 3_600_000;

jest.setTimeout(WITHIN_MS + 600_000);

describe('a fleet-wide rebuild in fleet mode', () => {
  let sim: SimInChildProcess | undefined;

  afterAll(async () => {
    await sim?.stop();
  });

  it(`takes ${PRODUCTS} Products into test within an hour, within GitHub's write limits`, async () => {
    sim = await startOrgScaleSim();
    addManyProducts(sim.repoDir, PRODUCTS);
    newWebInEveryDev(sim.repoDir, PRODUCTS, 1);
    const head = execFileSync('git', ['--git-dir', sim.repoDir, 'rev-parse', 'main'], { encoding: 'utf8' }).trim();
    // Each Application syncs its Release file from the platform repo, as the seeds' ApplicationSet writes them.
    const argo = new FakeHealthSource({ platformRepoUrl: `https://${new URL(sim.url).host}/refplat/platform` });
    for (let n = 0; n < PRODUCTS; n++) {
      const product = { team: `team${n % 50}`, product: `product${n}` };
      const released = addedProductDigests(n);
      for (const stage of STAGES) argo.runs(product, stage, stage === 'dev' ? { ...released, web: builtWebDigest(1) } : released, head);
    }
    const db = Knex({ client: 'better-sqlite3', connection: ':memory:', useNullAsDefault: true });
    const { host } = new URL(sim.url);
    const services = await costServices(
      sim,
      db,
      {
        promotions: {
          platformRepo: { host, owner: 'refplat', repo: 'platform', branch: 'main', writeBudget: GITHUB_WRITE_BUDGET },
          autoPromote: { fleet: FLEET },
        },
      },
      argo,
    );

    await sim.control.clearRequests();
    const started = performance.now();
    const run = await asBulkWork(() => services.autoPromoter.run());
    const lastQueuedMs = Math.round(performance.now() - started);
    const intoTest = run.queued.filter(queued => queued.toStage === 'test');
    expect(intoTest).toHaveLength(PRODUCTS);
    const drained = await services.promotionQueue.drain();
    const lastOpenedMs = Math.round(performance.now() - started);
    const settled = await eventually(async () => {
      await services.gate.checkAll();
      const records = await Promise.all(intoTest.map(queued => services.store.get(queued.promotionId)));
      return records.every(record => record && ['merged', 'closed', 'failed'].includes(record.status)) ? records : undefined;
    }, WITHIN_MS);
    const lastMergedMs = Math.round(performance.now() - started);
    const calls = (await sim.control.getRequests()).filter(call => call.target === 'github');
    const writes = calls.filter(call => call.method !== 'GET' && call.method !== 'HEAD');
    const charged = calls.filter(call => (call.method === 'GET' || call.method === 'HEAD') && call.status !== 304);
    const perPromotion = (n: number) => Math.round((n / PRODUCTS) * 100) / 100;
    const result = {
      machine: machine(),
      products: PRODUCTS,
      climbing: PRODUCTS,
      fleet: FLEET,
      writeBudget: GITHUB_WRITE_BUDGET,
      simulatorWriteLimits: GITHUB_WRITE_LIMITS,
      merged: settled.filter(record => record!.status === 'merged').length,
      notMerged: settled.filter(record => record!.status !== 'merged').map(record => `${record!.team}/${record!.product}: ${record!.status} ${record!.statusReason ?? ''}`),
      drained,
      pullRequests: writes.filter(call => call.method === 'POST' && call.path.endsWith('/pulls')).length,
      lastQueuedMs,
      lastPullRequestOpenedMs: lastOpenedMs,
      lastMergedMs,
      githubWrites: writes.length,
      githubWritesPerPromotion: perPromotion(writes.length),
      chargedReadsPerPromotion: perPromotion(charged.length),
      refusedForSecondaryLimit: writes.filter(call => call.status === 403 || call.status === 429).length,
    };
    write(`fleet-climb-${PRODUCTS}.json`, result);
    expect(result.merged).toBe(PRODUCTS);
    expect(result.refusedForSecondaryLimit).toBe(0);
    expect(lastMergedMs).toBeLessThan(WITHIN_MS);
  });
});
