import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exchange, GIT_REF } from './__testUtils__/exchanges';
import { checkRecordings, failureMessage } from './checkRun';

const GOOD_REF = exchange('GET', '/github/repos/refplat/platform/git/ref/heads%2Fmain', { response: GIT_REF });
const BAD_REF = exchange('GET', '/github/repos/refplat/platform/git/ref/heads%2Fmain?recursive=1', { response: GIT_REF });

describe('checking a run\'s recordings', () => {
  it('reports each test file on its own and names the failing ones', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spec-conformance-'));
    try {
      const run = checkRecordings(
        [
          { suite: 'changes.api', testFile: 'changes.api.test.ts', recordedAt: '2026-12-01T10:00:00Z', exchanges: [{ ...GOOD_REF, suite: 'changes.api' }] },
          { suite: 'ladder.api', testFile: 'ladder.api.test.ts', recordedAt: '2026-12-01T10:01:00Z', exchanges: [{ ...BAD_REF, suite: 'ladder.api' }, { ...GOOD_REF, suite: 'ladder.api' }] },
        ],
        dir,
      );
      expect(run.reports.map(r => [r.suite, r.counts.exchanges, r.failures.length])).toEqual([['changes.api', 1, 0], ['ladder.api', 2, 1]]);
      expect(fs.readdirSync(path.join(dir, 'suites')).sort()).toEqual(['changes.api.json', 'ladder.api.json']);
      expect(fs.readFileSync(run.summary, 'utf8')).toMatch(/\| ladder\.api \| 2026-12-01T10:01:00Z \| 2 \|/);
      const message = failureMessage(run)!;
      expect(message).toMatch(/^The product's traffic in ladder\.api does not conform to the real APIs/);
      expect(message).toContain('ladder.api (1 finding(s)):\n- [product request invalid] 1× github GET /repos/{owner}/{repo}/git/ref/{ref} (git/get-ref): query parameter recursive');
      expect(failureMessage({ ...run, reports: run.reports.slice(0, 1) })).toBeUndefined();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
