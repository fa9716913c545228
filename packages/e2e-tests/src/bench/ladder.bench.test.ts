import fs from 'fs';
import path from 'path';
import { RunningStack, startStack, userToken } from '../stack';

/**
 * Benchmark, not a test: run with `npm run bench`. Measures ladder views
 * through the real backend against the simulator: upstream calls (GitHub and
 * ArgoCD, from the simulator's request log) per view and per cache TTL, and
 * latency percentiles, cold, for one viewer back to back, for many viewers at
 * once, and right after a Release change.
 */
const describeBench = process.env.BENCH ? describe : describe.skip;
const WARM_VIEWS = Number(process.env.BENCH_VIEWS ?? 200);
const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 20);
/** promotions.cacheTtl's default, set explicitly so the per-TTL numbers divide by the real TTL. */
const CACHE_TTL_MS = 5_000;
/** Each of the many viewers views back to back this long: a few TTLs. */
const VIEWERS_MS = Number(process.env.BENCH_VIEWERS_MS ?? 3 * CACHE_TTL_MS);
const CHANGE_VISIBLE_TIMEOUT_MS = 60_000;
const RESULTS = path.resolve(__dirname, '../../../../test-results/bench');

jest.setTimeout(600_000);

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round(sorted[Math.max(0, index)] * 10) / 10;
}

function latencySummary(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    p50ms: percentile(sorted, 50),
    p95ms: percentile(sorted, 95),
    p99ms: percentile(sorted, 99),
    maxMs: Math.round(sorted[sorted.length - 1]),
  };
}

describeBench('ladder view benchmark', () => {
  let stack: RunningStack;
  let token: string;

  beforeAll(async () => {
    stack = await startStack({}, { cacheTtl: { milliseconds: CACHE_TTL_MS } });
    token = await userToken(stack.baseUrl, 'bob');
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function view(product: string): Promise<{ ms: number; revision: string }> {
    const started = performance.now();
    const response = await fetch(`${stack.baseUrl}/api/promotions/products/${product}/ladder`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = await response.json();
    if (!response.ok) throw new Error(`ladder answered ${response.status}`);
    return { ms: performance.now() - started, revision: body.revision };
  }

  function upstreamCalls() {
    const calls = stack.sim.control.getRequests();
    stack.sim.control.clearRequests();
    const github = calls.filter(c => c.target === 'github');
    const argocd = calls.filter(c => c.target === 'argocd');
    return {
      github: github.length,
      github304: github.filter(c => c.status === 304).length,
      headChecks: github.filter(c => c.path.endsWith('/git/ref/heads/main')).length,
      argocd: argocd.length,
      argocdLists: argocd.filter(c => c.path === '/api/v1/applications').length,
    };
  }

  /** Upstream cost of a run of views, per view and per TTL window the run spans. */
  function costPerTtl(views: number, elapsedMs: number) {
    const calls = upstreamCalls();
    const ttlWindows = Math.ceil(elapsedMs / CACHE_TTL_MS);
    return {
      views,
      elapsedMs: Math.round(elapsedMs),
      ttlWindows,
      ...calls,
      githubPerView: calls.github / views,
      argocdPerView: calls.argocd / views,
      githubPerTtl: calls.github / ttlWindows,
      argocdListsPerTtl: calls.argocdLists / ttlWindows,
    };
  }

  it('measures cold views, back-to-back views, many viewers and a Release change', async () => {
    stack.sim.control.clearRequests();
    const coldMs = (await view('alpha/shop')).ms;
    const cold = upstreamCalls();

    let started = performance.now();
    const backToBack: number[] = [];
    for (let i = 0; i < WARM_VIEWS; i++) backToBack.push((await view('alpha/shop')).ms);
    const oneViewer = {
      ...costPerTtl(WARM_VIEWS, performance.now() - started),
      ...latencySummary(backToBack),
    };

    started = performance.now();
    const deadline = started + VIEWERS_MS;
    const perViewer = await Promise.all(
      Array.from({ length: VIEWERS }, async () => {
        const latencies: number[] = [];
        while (performance.now() < deadline) latencies.push((await view('alpha/shop')).ms);
        return latencies;
      }),
    );
    const all = perViewer.flat();
    const manyViewers = {
      viewers: VIEWERS,
      ...costPerTtl(all.length, performance.now() - started),
      ...latencySummary(all),
    };

    const before = (await view('alpha/shop')).revision;
    await stack.sim.control.ciPush({ team: 'alpha', product: 'shop', service: 'cart' });
    stack.sim.control.clearRequests();
    const pushed = performance.now();
    let afterChangeMs = 0;
    for (;;) {
      const seen = await view('alpha/shop');
      if (seen.revision !== before) {
        afterChangeMs = seen.ms;
        break;
      }
      if (performance.now() - pushed > CHANGE_VISIBLE_TIMEOUT_MS) {
        throw new Error('the Release change did not show within a minute');
      }
    }
    const changeVisibleAfterMs = Math.round(performance.now() - pushed);
    const afterChange = upstreamCalls();

    const result = {
      product: 'alpha/shop (5 stages × 3 services)',
      cacheTtlMs: CACHE_TTL_MS,
      cold: { ms: Math.round(coldMs), ...cold },
      oneViewerBackToBack: oneViewer,
      manyViewers,
      afterOneReleaseChange: { ms: Math.round(afterChangeMs), changeVisibleAfterMs, ...afterChange },
    };
    fs.mkdirSync(RESULTS, { recursive: true });
    fs.writeFileSync(path.join(RESULTS, 'ladder.json'), `${JSON.stringify(result, null, 2)}\n`);
    // eslint-disable-next-line no-console
    console.log(JSON.stringify(result, null, 2));
    for (const run of [oneViewer, manyViewers]) {
      expect(run.headChecks).toBeLessThanOrEqual(run.ttlWindows);
      expect(run.argocdLists).toBeLessThanOrEqual(run.ttlWindows);
    }
  });
});
