import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeSuiteReports } from './reportFiles';
import { SuiteReport } from './summary';

function report(suite: string, failures: SuiteReport['failures'], count: number): SuiteReport {
  return {
    suite,
    recordedAt: '2026-11-30T12:00:00.000Z',
    checkMs: 900,
    references: ['@octokit/openapi 23.0.2'],
    counts: { exchanges: count, product: count, harness: 0, judged: count, injected: 0, teardown: 0, dropped: 0, fieldResponses: count },
    operations: [{ operation: 'github GET /repos/{owner}/{repo}/git/ref/{ref} (git/get-ref)', count, statuses: { 200: count }, requestInvalid: 0, responseDiffers: 0 }],
    failures,
    excepted: [],
    warnings: [],
    notes: [],
    fieldRows: [{ api: 'github', op: 'GET /x 200 (x/get)', field: 'object.sha', tolerant: false, found: true, type: 'string' }],
  };
}

describe('the written report', () => {
  it('keeps each test file\'s report and sums them up in summary.md', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spec-conformance-'));
    try {
      const failure = { kind: 'product request invalid' as const, key: 'github GET /a: query x is not declared', count: 2, example: 'GET /github/a?x=1 → 200 (ladder.api)', suites: ['ladder.api'] };
      writeSuiteReports([report('ladder.api', [failure], 5)], dir);
      const summary = fs.readFileSync(writeSuiteReports([report('changes.api', [{ ...failure, count: 1, suites: ['changes.api'] }], 3)], dir), 'utf8');
      expect(fs.readdirSync(path.join(dir, 'suites')).sort()).toEqual(['changes.api.json', 'ladder.api.json']);
      expect(summary).toContain('## Verdict: FAILED');
      expect(summary).toContain('- [product request invalid] 3× github GET /a: query x is not declared — in changes.api, ladder.api');
      expect(summary).toContain('| github GET /repos/{owner}/{repo}/git/ref/{ref} (git/get-ref) | 8 | 200×8 | 0 | 0 |');
      expect(fs.existsSync(path.join(dir, '.lock'))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
