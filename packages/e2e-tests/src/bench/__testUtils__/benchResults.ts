import fs from 'fs';
import os from 'os';
import path from 'path';

const RESULTS = path.resolve(__dirname, '../../../../../test-results/bench');

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round(sorted[Math.max(0, index)] * 10) / 10;
}

/** p50, p95, p99 and the maximum of some durations in ms. */
export function latencySummary(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    p50ms: percentile(sorted, 50),
    p95ms: percentile(sorted, 95),
    p99ms: percentile(sorted, 99),
    maxMs: Math.round(sorted[sorted.length - 1]),
  };
}

/** The machine a result was measured on, and how busy it was, written beside it. */
export function machine() {
  return {
    nproc: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    loadAverage: os.loadavg().map(load => Math.round(load * 10) / 10),
  };
}

/** Writes `test-results/bench/<name>` and prints it. */
export function writeResult(name: string, result: unknown) {
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, name), `${JSON.stringify(result, null, 2)}\n`);
  // eslint-disable-next-line no-console
  console.log(JSON.stringify(result, null, 2));
}
