import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { overviewCursor } from '@refplat/plugin-promotions-common';
import { costServices, measure } from '../__testUtils__/githubCost';
import { OverviewService } from '../service/OverviewService';
import { parseOverviewQuery } from '../service/overviewQuery';
import { machine, simWith, write } from '../__testUtils__/benchResults';

/**
 * Benchmark, not a test (`npm run bench`): GET /overview's answer over many
 * Products from a warm model, its latency and the GitHub requests it adds.
 */
const PRODUCTS = Number(process.env.BENCH_OVERVIEW_PRODUCTS ?? 1000);
/** Back-to-back answers within one refresh interval. */
const REQUESTS = Number(process.env.BENCH_OVERVIEW_REQUESTS ?? 300);
/** Then back-to-back answers for this long: past the refresh interval, so a background sweep runs among them. */
const SWEEP_WINDOW_MS = Number(process.env.BENCH_OVERVIEW_SWEEP_SECONDS ?? 45) * 1000;
/** What the page asks: the first page, a team, stuck only, the largest page, and the next page of it. */
const QUERIES = ['', '?team=team7', '?filter=stuck', '?limit=200', `?limit=200&cursor=${overviewCursor('team10/product510')}`];

jest.setTimeout(3_600_000);

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] * 10) / 10;
  return { count: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: at(1) };
}

describe('GET /overview at scale', () => {
  it(`answers over ${PRODUCTS} added Products from warm state`, async () => {
    const sim = await simWith(PRODUCTS);
    try {
      // The default cacheTtl (5 s): the model sweeps again 30 s after its last sweep. Delivery
      // metrics on, as by default: each ladder build also reads its cells' arrivals.
      const services = await costServices(sim, undefined, { cacheTtl: { seconds: 5 }, metrics: { enabled: true } });
      const timelineRead = await measure(sim, () => services.timelineReader.readNewCommits());
      const overview = new OverviewService({
        model: services.overviewModel,
        stages: services.config.stages,
        userInfo: mockServices.userInfo(),
      });
      // As mockServices.permissions() answers: every Product readable.
      const everyProduct = { require: async () => {}, among: async <T>(products: T[]) => products };
      const alice = mockCredentials.user('user:default/alice');
      /** One answer as the route gives it: parsed query, filtered page, JSON text. */
      const answer = async (query: string) => {
        const params = Object.fromEntries(new URLSearchParams(query));
        return JSON.stringify(await overview.overview(alice, parseOverviewQuery(params), everyProduct));
      };
      const timed = async (query: string) => {
        // As between requests from a socket: the event loop turns, so a background sweep's reads progress.
        await new Promise(resolve => setImmediate(resolve));
        const started = performance.now();
        const body = await answer(query);
        return { ms: performance.now() - started, bytes: body.length };
      };

      const cold = await measure(sim, () => answer(''));
      const total = (JSON.parse(cold.result) as { total: number }).total;

      const warmMs: number[] = [];
      const warm = await measure(sim, async () => {
        for (let i = 0; i < REQUESTS; i++) warmMs.push((await timed(QUERIES[i % QUERIES.length])).ms);
      });

      const sweepMs: number[] = [];
      const stuckMs: number[] = [];
      const sweeping = await measure(sim, async () => {
        const until = Date.now() + SWEEP_WINDOW_MS;
        for (let i = 0; Date.now() < until; i++) {
          sweepMs.push((await timed(QUERIES[i % QUERIES.length])).ms);
          if (i % 10 === 0) {
            await new Promise(resolve => setImmediate(resolve));
            const started = performance.now();
            JSON.stringify(await overview.stuck(everyProduct));
            stuckMs.push(performance.now() - started);
          }
        }
      });

      const result = {
        machine: machine(),
        products: total,
        target: 'p95 ≤ 300 ms from warm state; no GitHub request beyond the scan’s',
        queries: QUERIES,
        // Before the cold request, not counted in it: the delivery metrics' first read of the history.
        timelineRead: { commits: timelineRead.result, ms: timelineRead.cost.ms, github: timelineRead.cost.github },
        cold: { ms: cold.cost.ms, github: cold.cost.github, charged: cold.cost.charged, calls: cold.cost.calls },
        warm: { latencyMs: percentiles(warmMs), github: warm.cost.github, charged: warm.cost.charged, argocd: warm.cost.argocd },
        withBackgroundSweep: {
          seconds: SWEEP_WINDOW_MS / 1000,
          latencyMs: percentiles(sweepMs),
          stuckLatencyMs: percentiles(stuckMs),
          github: sweeping.cost.github,
          charged: sweeping.cost.charged,
          argocd: sweeping.cost.argocd,
          calls: sweeping.cost.calls,
        },
        pageBytes: { first: (await timed('')).bytes, limit200: (await timed('?limit=200')).bytes },
      };
      write('overview.json', result);
      expect(total).toBe(PRODUCTS + 2);
      expect(warm.cost.github).toBe(0);
      expect(sweeping.cost.charged).toBe(0);
    } finally {
      await sim.stop();
    }
  });
});
