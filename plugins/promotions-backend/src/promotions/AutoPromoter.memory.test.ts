import { ChildProcess } from 'child_process';
import { addManyProducts, changeOneRelease } from '../bench/manyProducts';
import { SimInChildProcess, startSimInChildProcess } from '../bench/simProcess';
import { FAST_SIM_TIMINGS, simConfig } from '../__testUtils__/testBackend';
import { decideInChildProcess } from './__testUtils__/decideInChildProcess';

/** Issue 48: the plugin's process stays under 1 GB resident at 10,000 Products. */
const PRODUCTS = 10_000;
/** The simulator's own Products (alpha/shop, beta/payments), beside those added. */
const SIMULATOR_PRODUCTS = 2;
const HEAP_LIMIT_MB = 1024;
const PEAK_RSS_LIMIT_MB = 1024;
/**
 * A cold decision over 10,000 Products parses 100,000 files: 160 s for the
 * whole test (the simulator's start and import 54 s, the run 101 s) on a
 * 2-core machine at load average 7, 73 s at load average 5.
 */
const TIMEOUT_MS = 400_000;

describe('the auto-promoter at 10,000 Products', () => {
  let sim: SimInChildProcess | undefined;
  let deciding: ChildProcess | undefined;

  afterAll(async () => {
    // A test that timed out leaves no process behind.
    if (deciding?.exitCode === null) deciding.kill();
    await sim?.stop();
  });

  it(
    `decides every Product cold within a ${HEAP_LIMIT_MB} MB heap, under ${PEAK_RSS_LIMIT_MB} MB resident`,
    async () => {
      sim = await startSimInChildProcess({ ...FAST_SIM_TIMINGS, rateLimit: 1_000_000, withoutApplicationSets: 'added' });
      addManyProducts(sim.repoDir, PRODUCTS - SIMULATOR_PRODUCTS);
      // A CI build on top: the head the plugin reads first is one file's commit, which the simulator
      // answers at once, not the import of 100,000 files, which it took more than 10 s to list.
      changeOneRelease(sim.repoDir, 0, 1);
      // The plugin's first read downloads the head's tarball. The simulator archives a commit once
      // and keeps it, as GitHub's codeload does: done here, the archiving of 100,000 files is not
      // timed by the plugin's 10 s GitHub deadline, which it once exceeded on a loaded machine.
      const archive = await fetch(`${sim.githubApiUrl}/repos/refplat/platform/tarball/main`, {
        headers: { authorization: `token ${sim.tokens.github}` },
      });
      expect(archive.status).toBe(200);
      await archive.arrayBuffer();

      const decided = await decideInChildProcess({ rootConfig: simConfig(sim, 'argocd'), repoDir: sim.repoDir }, HEAP_LIMIT_MB, child => {
        deciding = child;
      });

      expect(decided).toMatchObject({ products: PRODUCTS, skipped: 0 });
      expect(decided.peakRssMb).toBeLessThan(PEAK_RSS_LIMIT_MB);
    },
    TIMEOUT_MS,
  );
});
