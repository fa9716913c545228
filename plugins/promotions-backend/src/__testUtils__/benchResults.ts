import { execFileSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { RunningSim, startPlatformSim } from '@refplat/platform-sim';
import { addManyProducts } from '../bench/manyProducts';

const RESULTS = path.resolve(__dirname, '../../../../test-results/bench');

/** Comma-separated Product counts, e.g. BENCH_PRODUCTS=1000,10000. */
export const SIZES = (process.env.BENCH_PRODUCTS ?? '1000,10000').split(',').map(Number);

/** The machine a result was measured on, written beside it. */
export const machine = () => ({
  nproc: os.cpus().length,
  arch: execFileSync('uname', ['-m'], { encoding: 'utf8' }).trim(),
  cpu: os.cpus()[0]?.model,
  loadAverage: os.loadavg().map(load => Math.round(load * 10) / 10),
});

/** Writes `test-results/bench/<name>` and prints it. */
export function write(name: string, result: unknown) {
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, name), `${JSON.stringify(result, null, 2)}\n`);
  // eslint-disable-next-line no-console
  console.log(name, JSON.stringify(result, null, 2));
}

/**
 * A simulator whose ArgoCD does not look at the added Products (its loop
 * would canary thousands of new Applications): their Applications are
 * absent, so health reads cost one list call per run.
 */
export async function simWith(products: number): Promise<RunningSim> {
  const sim = await startPlatformSim({ reconcileIntervalMs: 3_600_000, rateLimit: 1_000_000 });
  addManyProducts(sim.repoDir, products);
  return sim;
}
