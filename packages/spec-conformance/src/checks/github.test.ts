import { exchange, GIT_REF, SHA } from '../__testUtils__/exchanges';
import { createGithubChecker } from './github';

const checker = createGithubChecker();
const REPO = '/github/repos/refplat/platform';

describe('the GitHub check', () => {
  it.each([
    ['a conditional ref read', exchange('GET', `${REPO}/git/ref/heads%2Fmain`, { response: GIT_REF }), 'git/get-ref'],
    ['a recursive tree read', exchange('GET', `${REPO}/git/trees/${SHA}?recursive=1`, { response: { sha: SHA, url: 'https://api.github.com/x', truncated: false, tree: [] } }), 'git/get-tree'],
    ['a pull request list with paging', exchange('GET', `${REPO}/pulls?state=open&base=main&per_page=100`, { response: [] }), 'pulls/list'],
    ['a compare of two commits', exchange('GET', `/github/repos/alpha/storefront/compare/${SHA}...main?per_page=50&page=2`, { status: 404, response: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } }), 'repos/compare-commits'],
  ])('accepts %s as GitHub would', (_name, recorded, operationId) => {
    const result = checker.check(recorded);
    expect(result).toMatchObject({ operationId, source: 'product', injected: false, requestProblems: [], responseProblems: [] });
  });

  it.each([
    ['an undeclared query parameter', exchange('GET', `${REPO}/git/trees/${SHA}?recursive=1&depth=2`), 'query parameter depth is not declared for git/get-tree'],
    ['a parameter of the wrong type', exchange('GET', `${REPO}/pulls?per_page=many`), 'query per_page=many: / must be integer'],
    ['a value outside the enum', exchange('GET', `${REPO}/pulls?state=merged`), 'query state=merged: / must be equal to one of the allowed values ["open","closed","all"]'],
    ['a method the path does not allow', exchange('DELETE', `${REPO}/git/trees/${SHA}`), 'DELETE is not allowed on /repos/{owner}/{repo}/git/trees/{tree_sha}'],
    ['a path GitHub does not have', exchange('GET', `${REPO}/releases-of-stage/dev`), 'no path in the description matches /repos/refplat/platform/releases-of-stage/dev'],
    ['a body without a required field', exchange('POST', `${REPO}/pulls`, { status: 201, request: { title: 'Promote', head: 'promotions/x' } }), 'request body: /base is required'],
    ['a body field of the wrong type', exchange('PUT', `${REPO}/pulls/7/merge`, { request: { sha: SHA, merge_method: 'fast-forward' } }), 'request body: /merge_method must be equal to one of the allowed values ["merge","squash","rebase"]'],
    ['an unknown media type', exchange('GET', `${REPO}/git/ref/heads%2Fmain`, { reqHeaders: { 'user-agent': 'backstage-plugin-promotions', accept: 'application/yaml' } }), 'Accept application/yaml is not a GitHub media type'],
  ])('fails %s', (_name, recorded, problem) => {
    expect(checker.check(recorded).requestProblems.join('\n')).toContain(problem);
  });

  it('reports a response the description shapes differently', () => {
    const result = checker.check(exchange('GET', `${REPO}/git/ref/heads%2Fmain`, { response: { ...GIT_REF, object: { sha: SHA } } }));
    expect(result.responseProblems).toEqual(expect.arrayContaining(['response 200: /object/type is required', 'response 200: /object/url is required']));
  });

  it('takes a 304 to a conditional request as GitHub answers any, and an undocumented status as a difference', () => {
    const conditional = checker.check(
      exchange('GET', `${REPO}/git/ref/heads%2Fmain`, { status: 304, reqHeaders: { 'user-agent': 'backstage-plugin-promotions', 'if-none-match': '"abc"' } }),
    );
    expect(conditional.responseProblems).toEqual([]);
    expect(conditional.notes.join()).toContain('GitHub answers 304 to any conditional request');
    const teapot = checker.check(exchange('GET', `${REPO}/git/ref/heads%2Fmain`, { status: 418, response: {} }));
    expect(teapot.responseProblems).toEqual(['status 418 is not documented for git/get-ref (the description has 200,404,409)']);
  });

  it('marks injected faults and requests that are not the product\'s', () => {
    const fault = checker.check(exchange('POST', `${REPO}/pulls`, { status: 502, resHeaders: {}, resBody: 'Bad Gateway' }));
    expect(fault).toMatchObject({ injected: true, requestProblems: [], responseProblems: [] });
    const harness = checker.check(exchange('GET', `${REPO}/git/ref/heads%2Fmain`, { reqHeaders: { 'user-agent': 'octokit-rest.js/20.1.2' }, response: GIT_REF }));
    expect(harness.source).toBe('harness');
  });
});
