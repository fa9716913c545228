import { ChildProcess, spawn } from 'child_process';
import path from 'path';
import { addManyProducts, changeOneRelease } from '../bench/manyProducts';
import { SimInChildProcess, startSimInChildProcess } from '../bench/simProcess';
import { FAST_SIM_TIMINGS, simConfig } from '../__testUtils__/testBackend';
import type { DecidedAtScale, DecideAtScaleInput } from './__testUtils__/decideAtScale';

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

/** Runs decideAtScale.ts in a Node process of its own with `--max-old-space-size`; resolves with what it printed. */
function decideInChildProcess(input: DecideAtScaleInput, started: (child: ChildProcess) => void): Promise<DecidedAtScale> {
  const entry = path.join(__dirname, '__testUtils__', 'decideAtScale.ts');
  const child = spawn(
    process.execPath,
    [`--max-old-space-size=${HEAP_LIMIT_MB}`, '--require', require.resolve('@backstage/cli/config/nodeTransform.cjs'), entry],
    { env: { ...process.env, DECIDE_AT_SCALE: JSON.stringify(input) }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  started(child);
  let output = '';
  child.stdout.on('data', chunk => (output += chunk));
  child.stderr.on('data', chunk => (output += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      const line = output.split('\n').find(candidate => candidate.startsWith('decided '));
      if (code === 0 && line) resolve(JSON.parse(line.slice('decided '.length)));
      // Out of heap, V8 aborts: the output says so.
      else reject(new Error(`the deciding process ended (exit code ${code}, signal ${signal}):\n${output.slice(-4000)}`));
    });
  });
}

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

      const decided = await decideInChildProcess({ rootConfig: simConfig(sim, 'argocd'), repoDir: sim.repoDir }, child => {
        deciding = child;
      });

      expect(decided).toMatchObject({ products: PRODUCTS, skipped: 0 });
      expect(decided.peakRssMb).toBeLessThan(PEAK_RSS_LIMIT_MB);
    },
    TIMEOUT_MS,
  );
});
