import fs from 'node:fs';
import path from 'node:path';
import { Exchange } from './exchange';
import { reportDir } from './report/reportFiles';

/**
 * Set by the run's global setup (runSetup.ts) and inherited by the jest
 * workers: the run whose folder the test files write their recordings to.
 */
export const RUN_ID_VARIABLE = 'SPEC_CONFORMANCE_RUN';

/** A run's folder is removed by its teardown; one that a killed run left is removed after this. */
const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;

/** One test file's traffic, as recorded/<run>/<suite>.json holds it. */
export interface RecordedFile {
  suite: string;
  /** The test file's name, e.g. ladder.api.test.ts. */
  testFile: string;
  recordedAt: string;
  exchanges: Exchange[];
}

const recordedRoot = (dir: string) => path.join(dir, 'recorded');

export function runFolder(runId: string, dir = reportDir()): string {
  return path.join(recordedRoot(dir), runId);
}

/**
 * Starts a run: a folder of its own under recorded/ (several runs may share a
 * checkout), named in the environment for the workers. Folders of runs that
 * were killed before their teardown are removed after a day.
 */
export function startRun(dir = reportDir(), now = Date.now()): string {
  const root = recordedRoot(dir);
  fs.mkdirSync(root, { recursive: true });
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    const folder = path.join(root, entry.name);
    if (entry.isDirectory() && now - fs.statSync(folder).mtimeMs > ABANDONED_AFTER_MS) fs.rmSync(folder, { recursive: true, force: true });
  }
  const runId = path.basename(fs.mkdtempSync(path.join(root, `${new Date(now).toISOString().replace(/[:.]/g, '-')}-`)));
  process.env[RUN_ID_VARIABLE] = runId;
  return runId;
}

/** The run this process belongs to. */
export function currentRun(): string {
  const runId = process.env[RUN_ID_VARIABLE];
  if (!runId) {
    throw new Error(
      `${RUN_ID_VARIABLE} is not set: the jest config that loads @refplat/spec-conformance/conformanceHook must also name @refplat/spec-conformance/runSetup as globalSetup and @refplat/spec-conformance/runTeardown as globalTeardown (packages/spec-conformance/README.md)`,
    );
  }
  return runId;
}

/** Stores one test file's traffic in the run's folder, compactly (the recorder caps each body). */
export function writeRecording(runId: string, recorded: RecordedFile, dir = reportDir()): void {
  const file = path.join(runFolder(runId, dir), `${recorded.suite}.json`);
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(recorded));
  fs.renameSync(temporary, file);
}

/**
 * Every test file's traffic recorded in the run, by suite name, read one
 * file at a time (a whole run's bodies need not be in memory at once).
 */
export function* readRecordings(runId: string, dir = reportDir()): Generator<RecordedFile> {
  const folder = runFolder(runId, dir);
  for (const name of fs.readdirSync(folder).filter(file => file.endsWith('.json')).sort()) {
    yield JSON.parse(fs.readFileSync(path.join(folder, name), 'utf8')) as RecordedFile;
  }
}

export function endRun(runId: string, dir = reportDir()): void {
  fs.rmSync(runFolder(runId, dir), { recursive: true, force: true });
}
