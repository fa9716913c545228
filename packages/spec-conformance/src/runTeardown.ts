/**
 * A jest globalTeardown: checks every test file's recorded traffic of the
 * run at once (README.md), writes the reports and fails the run on
 * findings. It checks what this run recorded, however many test files ran.
 */
import { checkRecordings, failureMessage } from './checkRun';
import { currentRun, endRun, readRecordings } from './recordings';

export default function runTeardown(): void {
  const runId = currentRun();
  try {
    const run = checkRecordings(readRecordings(runId));
    if (!run.reports.length) return;
    const exchanges = run.reports.reduce((sum, r) => sum + r.counts.exchanges, 0);
    // eslint-disable-next-line no-console
    console.log(`\nspec conformance: ${exchanges} exchanges of ${run.reports.length} test file(s) checked in ${run.checkMs} ms; ${run.summary}`);
    const message = failureMessage(run);
    if (message) throw new Error(message);
  } finally {
    endRun(runId);
  }
}
