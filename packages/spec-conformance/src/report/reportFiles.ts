import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_DIR } from '../references';
import { renderSummary, SuiteReport } from './summary';

/** test-results/spec-conformance at the repository root, or SPEC_CONFORMANCE_OUT. */
export function reportDir(): string {
  return process.env.SPEC_CONFORMANCE_OUT ?? path.resolve(PACKAGE_DIR, '../../test-results/spec-conformance');
}

const LOCK_STALE_MS = 60_000;
const LOCK_WAIT_MS = 120_000;

/**
 * Holds a lock directory while `action` runs: runs that share a checkout
 * may finish at the same time, and each rewrites the summary from every
 * suite's report.
 */
function withLock<T>(dir: string, action: () => T): T {
  const lock = path.join(dir, '.lock');
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > LOCK_STALE_MS || Date.now() > deadline) fs.rmSync(lock, { recursive: true, force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
  try {
    return action();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, file);
}

/**
 * Stores the suites' reports (suites/<suite>.json) and rewrites summary.md
 * from every suite report in the folder, those of earlier runs included.
 * Returns the summary's path.
 */
export function writeSuiteReports(reports: SuiteReport[], dir = reportDir()): string {
  const suitesDir = path.join(dir, 'suites');
  fs.mkdirSync(suitesDir, { recursive: true });
  const summary = path.join(dir, 'summary.md');
  withLock(dir, () => {
    for (const report of reports) writeAtomically(path.join(suitesDir, `${report.suite}.json`), JSON.stringify(report, null, 1));
    const all: SuiteReport[] = fs
      .readdirSync(suitesDir)
      .filter(name => name.endsWith('.json'))
      .sort()
      .map(name => JSON.parse(fs.readFileSync(path.join(suitesDir, name), 'utf8')));
    writeAtomically(summary, renderSummary(all));
  });
  return summary;
}
