import { createConformanceChecker } from './checkExchanges';
import { RecordedFile } from './recordings';
import { writeSuiteReports } from './report/reportFiles';
import { SuiteReport } from './report/summary';

export interface RunCheck {
  reports: SuiteReport[];
  /** Loading the descriptions, compiling the validators and checking every recording. */
  checkMs: number;
  /** summary.md */
  summary: string;
}

/**
 * Checks a run's recordings with one checker, so each description is loaded
 * and each operation's validators compiled once for the whole run, and
 * writes one report per test file. A report's checkMs is that file's share;
 * the first file's includes loading what it needed.
 */
export function checkRecordings(recordings: Iterable<RecordedFile>, dir?: string): RunCheck {
  const started = Date.now();
  const checker = createConformanceChecker();
  const reports: SuiteReport[] = [];
  for (const { suite, recordedAt, exchanges } of recordings) {
    const suiteStarted = Date.now();
    const conformance = checker.check(exchanges);
    reports.push({ suite, recordedAt, checkMs: Date.now() - suiteStarted, ...conformance });
  }
  const checkMs = Date.now() - started;
  return { reports, checkMs, summary: writeSuiteReports(reports, dir) };
}

/** The failures of a run's check, by test file, for the error that fails the run; undefined when there are none. */
export function failureMessage({ reports, summary }: RunCheck): string | undefined {
  const failing = reports.filter(r => r.failures.length);
  if (!failing.length) return undefined;
  const lines = failing.flatMap(r => [
    `${r.suite} (${r.failures.length} finding(s)):`,
    ...r.failures.flatMap(f => [`- [${f.kind}] ${f.count ? `${f.count}× ` : ''}${f.key}`, ...(f.example ? [`    e.g. ${f.example}`] : [])]),
  ]);
  return `The product's traffic in ${failing.map(r => r.suite).join(', ')} does not conform to the real APIs (details in ${summary}):\n${lines.join('\n')}`;
}
