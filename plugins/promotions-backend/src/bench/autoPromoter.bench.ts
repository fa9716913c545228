import { addedProduct, costServices, GithubCost, measure } from '../__testUtils__/githubCost';
import { SIZES, machine, simWith, write } from '../__testUtils__/benchResults';
import { changeOneRelease } from './manyProducts';

/**
 * Benchmark, not a test (`npm run bench`): GitHub's cost of auto-promoter
 * scans over many Products (cold, unchanged, one Release changed) and of
 * Gate runs over many open promotions, counted in the simulator.
 */
/**
 * Whole auto-promoter runs only up to this many Products (BENCH_AUTO_PROMOTER_MAX):
 * the bench's three runs at 5,000 took 27 s together (cold 19.6 s) on a 2-core
 * machine, and a run's setup of 10,000 Products takes minutes more.
 */
const AUTO_PROMOTER_SIZES = SIZES.filter(size => size <= Number(process.env.BENCH_AUTO_PROMOTER_MAX ?? 1000));
const GATE_PROMOTIONS = Number(process.env.BENCH_GATE_PROMOTIONS ?? 100);
const GATE_RUNS = 3;

jest.setTimeout(3_600_000);

describe('GitHub cost at scale', () => {
  const scans: Record<string, { products: number; cold: GithubCost; unchanged: GithubCost; oneChange: GithubCost }> = {};

  for (const size of AUTO_PROMOTER_SIZES) {
    it(`auto-promoter over ${size} added Products: cold, unchanged, one Release changed`, async () => {
      const sim = await simWith(size);
      try {
        const services = await costServices(sim);
        const cold = await measure(sim, () => services.autoPromoter.run());
        const unchanged = await measure(sim, () => services.autoPromoter.run());
        changeOneRelease(sim.repoDir, 0, 1);
        const oneChange = await measure(sim, () => services.autoPromoter.run());
        scans[size] = { products: cold.result.products, cold: cold.cost, unchanged: unchanged.cost, oneChange: oneChange.cost };
        const targets = { cold: '≤ 5', unchanged: '1 (304)', oneChange: '≤ 3' };
        write(`auto-promoter-${size}.json`, { machine: machine(), targets, ...scans[size] });
        write('auto-promoter.json', { machine: machine(), targets, scans });
        expect(cold.result.products).toBe(size + 2);
        expect(cold.cost.github).toBeLessThanOrEqual(5);
        expect(unchanged.cost.calls).toEqual(['304 GET /repos/refplat/platform/commits/heads/main']);
      } finally {
        await sim.stop();
      }
    });
  }

  /**
   * The same three scans' GitHub reads without building a ladder per Product
   * (quick at any size, where whole auto-promoter runs take minutes):
   * the head, the index and every file, as a scan reads them.
   */
  for (const size of SIZES) {
    it(`platform repo reads of a scan over ${size} added Products: cold, unchanged, one Release changed`, async () => {
      const sim = await simWith(size);
      try {
        const { reader } = await costServices(sim);
        const scan = async () => {
          const index = await reader.fileIndex(await reader.headCommit());
          for (const blob of Object.values(index)) await reader.readBlob(blob);
          return Object.keys(index).length;
        };
        const cold = await measure(sim, scan);
        const unchanged = await measure(sim, scan);
        changeOneRelease(sim.repoDir, 0, 1);
        const oneChange = await measure(sim, scan);
        write(`repo-reads-${size}.json`, {
          machine: machine(),
          targets: { cold: '≤ 5', unchanged: '1 (304)', oneChange: '≤ 3' },
          files: cold.result,
          cold: cold.cost,
          unchanged: unchanged.cost,
          oneChange: oneChange.cost,
        });
        expect(cold.cost.github).toBeLessThanOrEqual(5);
        expect(unchanged.cost.calls).toEqual(['304 GET /repos/refplat/platform/commits/heads/main']);
        expect(oneChange.cost.github).toBeLessThanOrEqual(3);
      } finally {
        await sim.stop();
      }
    });
  }

  // BENCH_GATE_PROMOTIONS=0 leaves it out.
  if (GATE_PROMOTIONS > 0) {
    it(`Gate over ${GATE_PROMOTIONS} open promotions, nothing changing`, async () => {
      const sim = await simWith(Math.max(GATE_PROMOTIONS, Math.min(...SIZES)));
      try {
        const services = await costServices(sim);
        await services.autoPromoter.run(); // the cold read, not measured here
        for (let n = 0; n < GATE_PROMOTIONS; n++) await services.openWaitingRollback(addedProduct(n), n);
        const first = await measure(sim, () => services.gate.checkAll());
        const runs: GithubCost[] = [];
        for (let run = 0; run < GATE_RUNS; run++) runs.push((await measure(sim, () => services.gate.checkAll())).cost);
        write('gate.json', {
          machine: machine(),
          openPromotions: GATE_PROMOTIONS,
          target: '≤ 1 charged request per run',
          firstRun: { ...first.cost, note: 'publishes each PR health once' },
          unchangedRuns: runs,
        });
        for (const run of runs) expect(run.charged).toBeLessThanOrEqual(1);
      } finally {
        await sim.stop();
      }
    });
  }
});
