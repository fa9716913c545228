/**
 * A jest setupFilesAfterEnv hook: records the traffic between the product
 * and the platform simulator during one test file, checks it against the
 * real API descriptions afterwards, writes the report and fails the file
 * on findings (README.md). Wired into plugins/promotions-backend's jest
 * config.
 */
import path from 'node:path';
import { checkExchanges } from './checkExchanges';
import { startRecording } from './recorder';
import { writeSuiteReport } from './report/reportFiles';

// Loading the descriptions and compiling validators on a busy 2-core machine.
const CHECK_TIMEOUT_MS = 120_000;

const testFile = path.basename(expect.getState().testPath ?? 'unknown');
const suite = testFile.replace(/\.test\.[cm]?[jt]sx?$/, '');
const recording = startRecording(suite);

afterAll(() => {
  recording.stop();
  if (!recording.exchanges.length) return;
  const started = Date.now();
  const conformance = checkExchanges(recording.exchanges);
  const summary = writeSuiteReport({ suite, recordedAt: new Date().toISOString(), checkMs: Date.now() - started, ...conformance });
  if (!conformance.failures.length) return;
  const lines = conformance.failures.flatMap(f => [`- [${f.kind}] ${f.count ? `${f.count}× ` : ''}${f.key}`, ...(f.example ? [`    e.g. ${f.example}`] : [])]);
  throw new Error(
    `${testFile}: the product's traffic does not conform to the real APIs (${conformance.failures.length} finding(s); details in ${summary}):\n${lines.join('\n')}`,
  );
}, CHECK_TIMEOUT_MS);

