import { exchange, GIT_REF, SHA } from '../__testUtils__/exchanges';
import { createGithubChecker } from '../checks/github';
import { ExchangeResult } from '../exchange';
import { FieldProblem, FieldRow } from '../fields/fieldChecker';
import { judge } from './verdict';

const github = createGithubChecker();
const REPO = '/github/repos/refplat/platform';
const undeclared = () => github.check(exchange('GET', `${REPO}/git/ref/heads%2Fmain?fresh=1`, { response: GIT_REF }));
const leanComment = () => github.check(exchange('POST', `${REPO}/issues/7/comments`, { status: 201, request: { body: 'hi' }, response: { id: 1, body: 'hi' } }));
const missingRow: FieldRow = { api: 'github', op: 'GET /x 200 (x/get)', field: 'object.colour', tolerant: false, found: false };
const tolerantRow: FieldRow = { ...missingRow, field: 'object.shade', tolerant: true };

describe('the verdict', () => {
  it('fails invalid product requests and missing read fields, counting each exchange once per finding', () => {
    const verdict = judge([undeclared(), undeclared(), leanComment()], [missingRow, tolerantRow], new Map());
    expect(verdict.failures.map(f => [f.kind, f.key, f.count])).toEqual([
      ['product request invalid', 'github GET /repos/{owner}/{repo}/git/ref/{ref} (git/get-ref): query parameter fresh is not declared for git/get-ref', 2],
      ['product-read field', 'github GET /x 200 (x/get) object.colour: the product reads it; the real description has no such field', 0],
    ]);
    expect(verdict.warnings.map(f => f.key)).toEqual([
      'github GET /x 200 (x/get) object.shade: the product reads it; the real description has no such field (read with a fallback)',
      'github POST /repos/{owner}/{repo}/issues/{issue_number}/comments (issues/create-comment) 201: the simulator leaves out required fields of /',
    ]);
    expect(verdict.warnings[1].example).toMatch(/^POST \/github\/repos\/refplat\/platform\/issues\/7\/comments → 201 \(example\): \/\{.*created_at.*\}$/);
    expect(verdict.counts).toMatchObject({ exchanges: 3, product: 3, judged: 3, fieldResponses: 0 });
  });

  it('fails simulator values of read fields, and only warns about what the product does not read', () => {
    const result = leanComment();
    const problem: FieldProblem = { field: 'id', tolerant: false, at: 'id', problem: 'is string ("1"); the real API sends integer' };
    const verdict = judge([result], [], new Map<ExchangeResult, FieldProblem[]>([[result, [problem]]]));
    expect(verdict.failures).toEqual([
      expect.objectContaining({ kind: 'product-read field', count: 1, key: `github POST /repos/{owner}/{repo}/issues/{issue_number}/comments (issues/create-comment) id: the simulator's value is string (…); the real API sends integer` }),
    ]);
    expect(verdict.warnings).toHaveLength(1);
  });

  it('moves a failure listed as a known deviation out of the failures, with its reason', () => {
    const verdict = judge([undeclared()], [], new Map(), [{ matches: /query parameter fresh is not declared/, reason: 'the reader adds ?fresh; fix in PlatformRepoReader' }]);
    expect(verdict.failures).toEqual([]);
    expect(verdict.excepted).toEqual([expect.objectContaining({ count: 1, reason: 'the reader adds ?fresh; fix in PlatformRepoReader' })]);
  });

  it('does not judge responses of injected faults, harness requests or a stopped simulator', () => {
    const fault = github.check(exchange('GET', `${REPO}/git/ref/heads%2Fmain`, { status: 502, resHeaders: {}, resBody: 'Bad Gateway' }));
    const stopped = github.check(exchange('GET', `${REPO}/git/trees/${SHA}`, { status: 500, response: { message: 'Server Error' } }));
    const harness = github.check(exchange('GET', `${REPO}/git/ref/heads%2Fmain?fresh=1`, { reqHeaders: { 'user-agent': 'octokit-rest.js' } }));
    const verdict = judge([fault, stopped, harness], [], new Map());
    expect(verdict).toMatchObject({ failures: [], warnings: [], counts: { product: 2, harness: 1, judged: 0, injected: 1, teardown: 1 } });
  });
});
