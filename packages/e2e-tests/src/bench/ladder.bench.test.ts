import fs from 'fs';
import path from 'path';
import { RunningStack, startStack, userToken } from '../stack';

/**
 * Benchmark, not a test: run with `npm run bench`. Measures one ladder view
 * through the real backend against the simulator: upstream calls per view
 * (GitHub and ArgoCD, from the simulator's request log) and latency
 * percentiles, cold and warm.
 */
const describeBench = process.env.BENCH ? describe : describe.skip;
const WARM_VIEWS = Number(process.env.BENCH_VIEWS ?? 200);
const RESULTS = path.resolve(__dirname, '../../../../test-results/bench');

jest.setTimeout(600_000);

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round(sorted[Math.max(0, index)] * 10) / 10;
}

describeBench('ladder view benchmark', () => {
  let stack: RunningStack;
  let token: string;

  beforeAll(async () => {
    stack = await startStack();
    token = await userToken(stack.baseUrl, 'bob');
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function view(product: string): Promise<number> {
    const started = performance.now();
    const response = await fetch(`${stack.baseUrl}/api/promotions/products/${product}/ladder`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await response.json();
    if (!response.ok) throw new Error(`ladder answered ${response.status}`);
    return performance.now() - started;
  }

  function upstreamCalls() {
    const calls = stack.sim.control.getRequests();
    stack.sim.control.clearRequests();
    return {
      github: calls.filter(c => c.target === 'github').length,
      github304: calls.filter(c => c.target === 'github' && c.status === 304).length,
      argocd: calls.filter(c => c.target === 'argocd').length,
    };
  }

  it('measures cold and warm ladder views', async () => {
    stack.sim.control.clearRequests();
    const coldMs = await view('alpha/shop');
    const cold = upstreamCalls();

    const latencies: number[] = [];
    for (let i = 0; i < WARM_VIEWS; i++) latencies.push(await view('alpha/shop'));
    const warm = upstreamCalls();
    latencies.sort((a, b) => a - b);

    await stack.sim.control.ciPush({ team: 'alpha', product: 'shop', service: 'cart' });
    stack.sim.control.clearRequests();
    const afterChangeMs = await view('alpha/shop');
    const afterChange = upstreamCalls();

    const result = {
      product: 'alpha/shop (5 stages × 3 services)',
      cold: { ms: Math.round(coldMs), ...cold },
      warm: {
        views: WARM_VIEWS,
        githubPerView: warm.github / WARM_VIEWS,
        github304PerView: warm.github304 / WARM_VIEWS,
        argocdPerView: warm.argocd / WARM_VIEWS,
        p50ms: percentile(latencies, 50),
        p95ms: percentile(latencies, 95),
        p99ms: percentile(latencies, 99),
        maxMs: Math.round(latencies[latencies.length - 1]),
      },
      afterOneReleaseChange: { ms: Math.round(afterChangeMs), ...afterChange },
    };
    fs.mkdirSync(RESULTS, { recursive: true });
    fs.writeFileSync(path.join(RESULTS, 'ladder.json'), `${JSON.stringify(result, null, 2)}\n`);
    // eslint-disable-next-line no-console
    console.log(JSON.stringify(result, null, 2));
    expect(result.warm.githubPerView).toBe(1);
  });
});
