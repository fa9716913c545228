import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exchange } from './__testUtils__/exchanges';
import { endRun, readRecordings, RUN_ID_VARIABLE, runFolder, startRun, writeRecording } from './recordings';

describe('a run\'s recordings', () => {
  let dir: string;
  const savedRunId = process.env[RUN_ID_VARIABLE];
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spec-conformance-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    if (savedRunId === undefined) delete process.env[RUN_ID_VARIABLE];
    else process.env[RUN_ID_VARIABLE] = savedRunId;
  });

  it('holds only what the run itself recorded, each test file once', () => {
    const earlier = startRun(dir, Date.parse('2026-12-01T10:00:00Z'));
    writeRecording(earlier, { suite: 'ladder.api', testFile: 'ladder.api.test.ts', recordedAt: '2026-12-01T10:01:00Z', exchanges: [exchange('GET', '/github/a')] }, dir);
    const runId = startRun(dir, Date.parse('2026-12-01T10:05:00Z'));
    expect(process.env[RUN_ID_VARIABLE]).toBe(runId);
    expect([...readRecordings(runId, dir)]).toEqual([]);
    const recorded = { suite: 'changes.api', testFile: 'changes.api.test.ts', recordedAt: '2026-12-01T10:06:00Z', exchanges: [exchange('GET', '/github/b?page=2')] };
    writeRecording(runId, recorded, dir);
    writeRecording(runId, { ...recorded, suite: 'audit.api' }, dir);
    expect([...readRecordings(runId, dir)].map(r => r.suite)).toEqual(['audit.api', 'changes.api']);
    expect([...readRecordings(runId, dir)][1]).toEqual(recorded);
    endRun(runId, dir);
    expect(fs.existsSync(runFolder(runId, dir))).toBe(false);
    expect([...readRecordings(earlier, dir)]).toHaveLength(1);
  });

  it('removes the folder of a run killed before its teardown after a day', () => {
    const killed = startRun(dir);
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    fs.utimesSync(runFolder(killed, dir), dayAgo, dayAgo);
    const parallel = startRun(dir);
    startRun(dir);
    expect(fs.existsSync(runFolder(killed, dir))).toBe(false);
    expect(fs.existsSync(runFolder(parallel, dir))).toBe(true);
  });
});
