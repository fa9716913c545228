import { GITHUB_WRITE_BUDGET } from '@refplat/plugin-promotions-common';
import Knex from 'knex';
import { monitorEventLoopDelay } from 'perf_hooks';
import { GITHUB_WRITE_LIMITS, LoggedRequest } from '@refplat/platform-sim';
import { costServices } from '../__testUtils__/githubCost';
import { machine, write } from '../__testUtils__/benchResults';
import { eventually } from '../__testUtils__/testBackend';
import { asBulkWork } from '../github/WriteBudget';
import { profiled } from '../__testUtils__/cpuProfile';
import { addManyProducts } from './manyProducts';
import { SimInChildProcess, startOrgScaleSim } from './simProcess';

/**
 * Benchmark, not a test (`npm run bench`): a rebuild that gives many Products
 * a new digest in dev at once (issue 26). BENCH_CLIMBING Products (default 10)
 * run their new storefront healthy in dev; one auto-promoter run opens their
 * dev→test promotions, and the Gate merges them. The simulator enforces
 * GitHub's secondary write limit (80 a minute, 500 an hour), its platform
 * repo deletes merged branches itself, and the plugin keeps its default
 * write budget and octokit's pacing. Then the next rebuild, with the caches
 * as the first left them (`next`: dev→test for the new digests, test→uat for
 * the first ones, closed by the Gate where the new digest reaches test first). Written to test-results/bench/climb.json, for each:
 * time to the last promotion queued (and the plugin's event-loop delay meanwhile), the last PR opened and the last merge, GitHub writes and
 * charged reads, resource-tree reads, per promotion, and writes refused for
 * the secondary limit.
 *
 * Every climbing Product has its Applications in the simulated ArgoCD, which
 * canaries each one. BENCH_IDLE_PRODUCTS (default 0) more Products stand
 * beside them in the platform repo, 5 stages and 3 Services each, with
 * nothing to promote: issue 26's organisation is BENCH_IDLE_PRODUCTS=9900
 * BENCH_CLIMBING=100 (written to climb-10000-argocd<version>.json). The idle
 * Products have no ApplicationSet in the simulated cluster (the simulator
 * would otherwise reconcile 50,000 Applications, seconds a pass): the
 * plugin reads no ArgoCD state of a Product with nothing to promote, which
 * the resource-tree count shows. BENCH_ARGOCD picks ArgoCD 3 (the default:
 * health in the resource tree) or 2 (health inline). The simulator runs in
 * a process of its own, as GitHub and Argo CD run elsewhere than the
 * plugin: the times, CPU seconds and memory measured are the plugin's.
 * The plugin's delivery-metrics task (on by default) reads each commit as
 * the Products are created, and the merges after a rebuild: its requests
 * are counted with the promotions'.
 */
const CLIMBING = Number(process.env.BENCH_CLIMBING ?? 10);
const IDLE_PRODUCTS = Number(process.env.BENCH_IDLE_PRODUCTS ?? 0);
const ARGOCD_VERSION = process.env.BENCH_ARGOCD === '2' ? '2' : '3';
/**
 * BENCH_NEXT_REBUILD=false measures the first rebuild only: at 100 climbing
 * Products the two rebuilds' 1,200 writes would wait most of an hour for
 * GitHub's 500 an hour.
 */
const NEXT_REBUILD = process.env.BENCH_NEXT_REBUILD !== 'false';
/**
 * BENCH_CPU_PROFILE=<file>: a CPU profile of each auto-promoter run, and
 * its main-thread seconds split by whose code ran (`runCpuSeconds`).
 */
const CPU_PROFILE = process.env.BENCH_CPU_PROFILE;

const benchStart = performance.now();
/** A line on stderr per step: a run at 10,000 Products takes many minutes. */
function progress(step: string) {
  process.stderr.write(`climb bench +${Math.round((performance.now() - benchStart) / 1000)} s: ${step}\n`);
}
/**
 * The platform repo's "Automatically delete head branches": off, as GitHub creates a repository
 * (the plugin then deletes each merged branch itself); BENCH_DELETE_BRANCH_ON_MERGE=true turns it on.
 */
const DELETE_BRANCH_ON_MERGE = process.env.BENCH_DELETE_BRANCH_ON_MERGE === 'true';
/**
 * BENCH_FLEET=<n>: the auto-promoter's fleet mode on, n Products per PR at most
 * (`promotions.autoPromote.fleet`); off, as by default, when not given.
 */
const FLEET = process.env.BENCH_FLEET ? { enabled: true, maxProducts: Number(process.env.BENCH_FLEET) } : undefined;

jest.setTimeout(3_600_000);

/** How a step's upstream traffic divides per promotion. */
function perPromotion(calls: LoggedRequest[], promotions: number) {
  const github = calls.filter(call => call.target === 'github');
  const writes = github.filter(call => call.method !== 'GET' && call.method !== 'HEAD');
  const chargedReads = github.filter(call => (call.method === 'GET' || call.method === 'HEAD') && call.status !== 304);
  const trees = calls.filter(call => call.target === 'argocd' && call.path.endsWith('/resource-tree'));
  const byRoute = (list: LoggedRequest[]) =>
    Object.entries(
      list.reduce<Record<string, number>>((counts, call) => {
        const route = `${call.method} ${call.path.replace(/\/[0-9a-f]{40}$/, '/{sha}').replace(/\/\d+(\/|$)/g, '/{n}$1').replace(/promotions\/[^/]+$/, 'promotions/{branch}')}`;
        counts[route] = (counts[route] ?? 0) + 1;
        return counts;
      }, {}),
    )
      .sort(([, a], [, b]) => b - a)
      .map(([route, count]) => `${count} ${route}`);
  const round = (n: number) => Math.round((n / promotions) * 10) / 10;
  return {
    githubWrites: round(writes.length),
    chargedReads: round(chargedReads.length),
    resourceTreeReads: round(trees.length),
    refusedForSecondaryLimit: writes.filter(call => call.status === 403 || call.status === 429).length,
    writes: byRoute(writes),
    reads: byRoute(chargedReads),
  };
}

/**
 * The bench process's CPU seconds and peak resident memory from now until
 * stop(): the plugin's services (the simulator has its own process).
 */
function processUsage() {
  const cpuBefore = process.cpuUsage();
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 500);
  return {
    stop() {
      clearInterval(sampler);
      const cpu = process.cpuUsage(cpuBefore);
      return {
        cpuSeconds: Math.round((cpu.user + cpu.system) / 100_000) / 10,
        peakRssMb: Math.round(Math.max(peakRss, process.memoryUsage.rss()) / 2 ** 20),
      };
    },
  };
}

describe('a rebuild climbing many Products at once', () => {
  let sim: SimInChildProcess;

  afterAll(async () => {
    await sim?.stop();
  });

  it(`opens and merges ${CLIMBING} Products' promotions within GitHub's write limit, cold and on the next rebuild`, async () => {
    // Jest and the modules it loaded, before any plugin part exists: the share of peakRssMb that is not the plugin's.
    const rssBeforePluginMb = Math.round(process.memoryUsage.rss() / 2 ** 20);
    sim = await startOrgScaleSim({ deleteBranchOnMerge: DELETE_BRANCH_ON_MERGE, argocdVersion: ARGOCD_VERSION });
    const host = new URL(sim.url).host;
    const config = {
      promotions: {
        platformRepo: { host, owner: 'refplat', repo: 'platform', branch: 'main', writeBudget: GITHUB_WRITE_BUDGET },
        ...(FLEET ? { autoPromote: { fleet: FLEET } } : {}),
      },
      // On, as it is by default (the tests turn it off): here its reading is part of the cost.
      metrics: { enabled: true },
    };
    const db = Knex({ client: 'better-sqlite3', connection: ':memory:', useNullAsDefault: true });
    // The plugin was running while the Products were created: its delivery-metrics task read each
    // commit within a minute (here: after the import, and after every 25 Products of 8 commits each).
    const before = await costServices(sim, db, config);
    await before.timelineReader.readNewCommits();
    if (IDLE_PRODUCTS) addManyProducts(sim.repoDir, IDLE_PRODUCTS);
    await before.timelineReader.readNewCommits();
    const climbing = Array.from({ length: CLIMBING }, (_, n) => `shop-${n + 1}`);
    for (const [n, product] of climbing.entries()) {
      await sim.control.addProduct({ like: 'alpha/shop', product });
      if (n % 25 === 24 || n === climbing.length - 1) await before.timelineReader.readNewCommits();
    }
    progress(`${IDLE_PRODUCTS} idle and ${CLIMBING} climbing Products added, their commits read by the delivery metrics`);
    // Then a restart: the same database, every cache cold.
    const services = await costServices(sim, db, config);

    /** Until every climbing Product's `stage` runs its `digests` Synced and Healthy. */
    const runsHealthy = (stage: string, digests: Record<string, string>) =>
      eventually(async () => {
        const { apps } = await sim.control.getState();
        const ready = climbing.every(product => {
          const app = apps.find(candidate => candidate.name === `alpha-${product}-${stage}`);
          return app?.healthStatus === 'Healthy' && app.syncStatus === 'Synced' && app.images.some(image => image.endsWith(digests[product]));
        });
        return ready ? true : undefined;
      }, 600_000);

    /**
     * A rebuild: a new storefront digest for every climbing Product runs
     * healthy in dev, one auto-promoter run opens what may climb, and the
     * Gate merges it all. Traffic is counted from the auto-promoter run on.
     */
    const rebuild = async () => {
      const pushed: Record<string, string> = {};
      for (const product of climbing) {
        pushed[product] = (await sim.control.ciPush({ team: 'alpha', product, service: 'storefront' })).digest;
      }
      await runsHealthy('dev', pushed);
      progress('the new digests run healthy in dev');

      await sim.control.clearRequests();
      const usage = processUsage();
      // How long the plugin's event loop was held: a stall there times out requests that were answered.
      const loopDelay = monitorEventLoopDelay({ resolution: 20 });
      loopDelay.enable();
      const started = performance.now();
      const { result: run, cpu } = await profiled(CPU_PROFILE, () => asBulkWork(() => services.autoPromoter.run()));
      loopDelay.disable();
      const eventLoopDelayMs = { p99: Math.round(loopDelay.percentile(99) / 1e6), max: Math.round(loopDelay.max / 1e6) };
      progress(`event loop delay in the run: p99 ${eventLoopDelayMs.p99} ms, max ${eventLoopDelayMs.max} ms`);
      // Every promotion is decided and in the write queue (the database): it opens in its turn.
      const lastQueuedMs = Math.round(performance.now() - started);
      progress(`auto-promoter run queued ${run.queued.length} promotions in ${lastQueuedMs} ms${cpu ? `, main-thread CPU seconds ${JSON.stringify(cpu)}` : ''}`);
      // The simulator's slowest answers in the run: a health read over 10 s leaves a cell unknown.
      const slowest = [...(await sim.control.getRequests())].sort((a, b) => b.durationMs - a.durationMs).slice(0, 8);
      progress(`slowest simulator answers: ${slowest.map(call => `${call.durationMs} ms ${call.method} ${call.path} at ${call.at}`).join('; ')}`);
      const queuedProducts = new Set(run.queued.map(queued => queued.product));
      for (const decision of run.decisions.filter(d => d.toStage === 'test' && !queuedProducts.has(d.product))) {
        if (climbing.includes(decision.product.split('/')[1])) progress(`not queued: ${decision.product} ${decision.service}: ${decision.decision}, ${decision.reason}`);
      }
      expect(run.queued.filter(queued => queued.toStage === 'test').map(queued => queued.product).sort()).toEqual(
        climbing.map(product => `alpha/${product}`).sort(),
      );
      // The run started the drain; this joins it.
      const drained = await services.promotionQueue.drain();
      const lastOpenedMs = Math.round(performance.now() - started);
      progress(`write queue drained: ${JSON.stringify(drained)}`);
      const opening = await sim.control.getRequests();
      const failed = (await Promise.all(run.queued.map(queued => services.store.get(queued.promotionId)))).filter(
        promotion => promotion?.status === 'failed',
      );
      expect(failed.map(promotion => `${promotion!.product} ${promotion!.toStage}: ${promotion!.statusReason}`)).toEqual([]);
      expect(drained.failed).toBe(0);

      await sim.control.clearRequests();
      const promotions = await Promise.all(run.queued.map(async queued => (await services.store.get(queued.promotionId))!));
      // Settled: merged, closed when its source moved on (test→uat once the new digest reaches test),
      // or failed (an opening GitHub never answered, with no PR to adopt: the next run requests it again).
      const settled = await eventually(async () => {
        await services.gate.checkAll();
        const now = await Promise.all(promotions.map(async promotion => (await services.store.get(promotion.id))!));
        return now.every(p => p.status === 'merged' || p.status === 'closed' || p.status === 'failed') ? now : undefined;
      }, 1_800_000);
      const lastMergedMs = Math.round(performance.now() - started);
      // The delivery-metrics task reads the merges within its minute: its requests count too.
      await services.timelineReader.readNewCommits();
      const failedAfterOpening = settled
        .filter(p => p.status === 'failed')
        .map(p => `${p.team}/${p.product} ${p.toStage}: ${p.statusReason}`);
      progress(`every promotion settled${failedAfterOpening.length ? `; failed: ${failedAfterOpening.join('; ')}` : ''}`);
      const merging = await sim.control.getRequests();
      return {
        promotions: promotions.length,
        merged: settled.filter(p => p.status === 'merged').length,
        failedAfterOpening,
        lastQueuedMs,
        eventLoopDelayMs,
        runCpuSeconds: cpu,
        dropped: drained.dropped,
        lastPullRequestOpenedMs: lastOpenedMs,
        lastMergedMs,
        opening: perPromotion(opening, promotions.length),
        merging: perPromotion(merging, promotions.length),
        whole: perPromotion([...opening, ...merging], promotions.length),
        process: usage.stop(),
        pushed,
      };
    };

    // The first rebuild after a start: every cache cold; the database holds what the plugin read before
    // (the delivery-metrics timelines), so a run catches them up rather than read each Product's dev history.
    const { pushed: firstDigests, ...cold } = await rebuild();
    // The next one comes while the first climbs on: test runs the first digests, so
    // the run opens dev→test for the new ones and test→uat for those.
    let next: Omit<Awaited<ReturnType<typeof rebuild>>, 'pushed'> | undefined;
    if (NEXT_REBUILD) {
      await runsHealthy('test', firstDigests);
      const { pushed: _pushed, ...measured } = await rebuild();
      next = measured;
    }

    const result = {
      machine: machine(),
      products: IDLE_PRODUCTS + CLIMBING,
      climbing: CLIMBING,
      argocdVersion: ARGOCD_VERSION,
      idleProductsWithApplications: 0,
      writeBudget: GITHUB_WRITE_BUDGET,
      simulatorWriteLimits: GITHUB_WRITE_LIMITS,
      deleteBranchOnMerge: DELETE_BRANCH_ON_MERGE,
      fleet: FLEET ?? { enabled: false },
      rssBeforePluginMb,
      cold,
      next,
    };
    const name = IDLE_PRODUCTS ? `climb-${IDLE_PRODUCTS + CLIMBING}-argocd${ARGOCD_VERSION}` : 'climb';
    write(`${name}${FLEET ? `-fleet${FLEET.maxProducts}` : ''}.json`, result);
    expect(cold.merged).toBeGreaterThanOrEqual(CLIMBING);
    expect(next?.merged ?? CLIMBING).toBeGreaterThanOrEqual(CLIMBING);
    expect(cold.whole.refusedForSecondaryLimit).toBe(0);
    expect(next?.whole.refusedForSecondaryLimit ?? 0).toBe(0);
  });
});
