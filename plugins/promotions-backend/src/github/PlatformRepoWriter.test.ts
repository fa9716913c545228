import { CacheService } from '@backstage/backend-plugin-api';
import { Octokit } from '@octokit/rest';
import { PlatformRepoWriter } from './PlatformRepoWriter';

const LOCATION = { owner: 'platform', repo: 'gitops', branch: 'main' };

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

interface Recorded {
  method: string;
  path: string;
  body?: any;
  headers: Record<string, string>;
}

/**
 * A real Octokit whose transport answers from `answer` and records each
 * request: the adapter is tested on the requests it makes and on how it reads
 * GitHub's answers and failures, without a server.
 */
function recordedGithub(answer: (method: string, path: string) => Answer) {
  const requests: Recorded[] = [];
  const fetch = async (url: string, init: { method: string; body?: string; headers: Record<string, string> }) => {
    const { pathname, search } = new URL(url);
    const path = `${pathname}${search}`;
    requests.push({
      method: init.method,
      path,
      body: init.body ? JSON.parse(init.body) : undefined,
      headers: Object.fromEntries(Object.entries(init.headers).map(([k, v]) => [k.toLowerCase(), v])),
    });
    const { status, body, headers } = answer(init.method, path);
    return new Response(status === 304 || body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });
  };
  const octokit = new Octokit({ request: { fetch } });
  return { octokit, requests };
}

/** A cache that keeps what it is given, for the ETags and answers of conditional lists. */
function mapCache(): CacheService {
  const entries = new Map<string, any>();
  const cache: CacheService = {
    get: async key => entries.get(key),
    set: async (key, value) => {
      entries.set(key, value);
    },
    delete: async key => {
      entries.delete(key);
    },
    withOptions: () => cache,
  };
  return cache;
}

const pull = (number: number, extra: object = {}) => ({
  number,
  html_url: `https://github.com/platform/gitops/pull/${number}`,
  state: 'open',
  merged_at: null,
  head: { sha: `head${number}`, ref: `promotions/p${number}` },
  body: `marker ${number}`,
  ...extra,
});

describe('PlatformRepoWriter', () => {
  it('opens a PR from a branch against the base branch and reads it back as PullRequestInfo', async () => {
    const { octokit, requests } = recordedGithub(() => ({
      status: 201,
      body: pull(7, { state: 'closed', merged_at: '2026-01-01T00:00:00Z', merged_by: { login: 'octocat' } }),
    }));
    const pr = await new PlatformRepoWriter(octokit, LOCATION).openPullRequest({ branch: 'promotions/p7', title: 'T', body: 'B' });

    expect(requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/repos/platform/gitops/pulls',
        body: { head: 'promotions/p7', base: 'main', title: 'T', body: 'B' },
      }),
    ]);
    expect(pr).toEqual({
      number: 7,
      url: 'https://github.com/platform/gitops/pull/7',
      state: 'closed',
      merged: true,
      mergedBy: 'octocat',
      headSha: 'head7',
      headRef: 'promotions/p7',
      body: 'marker 7',
      mergeable: undefined,
    });
  });

  it('commits one file on top of its blob, and names the operation and status when GitHub refuses', async () => {
    let status = 200;
    const { octokit, requests } = recordedGithub(() => ({ status, body: status === 200 ? { commit: { sha: 'c1' } } : { message: 'is at b2 but expected b1' } }));
    const writer = new PlatformRepoWriter(octokit, LOCATION);
    const options = { branch: 'promotions/p1', path: 'gitops/releases/a/b/uat.yaml', text: 'digest: é\n', blobSha: 'b1', message: 'Promote' };

    expect(await writer.commitFile(options)).toBe('c1');
    expect(requests[0]).toMatchObject({
      method: 'PUT',
      path: '/repos/platform/gitops/contents/gitops%2Freleases%2Fa%2Fb%2Fuat.yaml',
      body: { branch: 'promotions/p1', message: 'Promote', sha: 'b1', content: Buffer.from('digest: é\n').toString('base64') },
    });

    status = 409;
    await expect(writer.commitFile(options)).rejects.toThrow(
      'GitHub failed while committing gitops/releases/a/b/uat.yaml on promotions/p1 (HTTP 409): is at b2 but expected b1',
    );
  });

  it('commits many files as one commit through the git data API (commit, tree, commit, ref), and stops on an answer without a sha', async () => {
    const parentSha = 'a'.repeat(40);
    let treeAnswer: unknown = { sha: 'b'.repeat(40) };
    const { octokit, requests } = recordedGithub((_method, path) => {
      if (path.includes('/git/commits/')) return { status: 200, body: { sha: parentSha, tree: { sha: 'e'.repeat(40) } } };
      if (path.endsWith('/git/trees')) return { status: 201, body: treeAnswer };
      if (path.endsWith('/git/commits')) return { status: 201, body: { sha: 'c'.repeat(40) } };
      return { status: 201, body: { ref: 'refs/heads/promotions/fleet/uat-1' } };
    });
    const writer = new PlatformRepoWriter(octokit, LOCATION);
    const files = [
      { path: 'gitops/releases/a/shop/uat.yaml', text: 'a\n' },
      { path: 'gitops/releases/b/cart/uat.yaml', text: 'b\n' },
    ];
    const input = { branch: 'promotions/fleet/uat-1', parent: parentSha, files, message: 'Promote 2 Products', createBranch: true };

    expect(await writer.commitFiles(input)).toBe('c'.repeat(40));
    expect(requests.map(r => `${r.method} ${r.path}`)).toEqual([
      `GET /repos/platform/gitops/git/commits/${parentSha}`,
      'POST /repos/platform/gitops/git/trees',
      'POST /repos/platform/gitops/git/commits',
      'POST /repos/platform/gitops/git/refs',
    ]);
    expect(requests[1].body).toEqual({
      base_tree: 'e'.repeat(40),
      tree: files.map(file => ({ path: file.path, mode: '100644', type: 'blob', content: file.text })),
    });
    expect(requests[3].body).toEqual({ ref: 'refs/heads/promotions/fleet/uat-1', sha: 'c'.repeat(40) });

    // A proxy's page or a truncated answer: no commit is built on an undefined tree, no branch made.
    requests.length = 0;
    treeAnswer = { message: 'Bad gateway' };
    await expect(writer.commitFiles(input)).rejects.toThrow(
      'GitHub failed while committing 2 files on promotions/fleet/uat-1: GitHub answered the tree it created without its sha (a body with message)',
    );
    expect(requests.map(r => r.method)).toEqual(['GET', 'POST']);
  });

  it.each([
    [200, { merged: true, sha: 'm1' }],
    [405, { merged: false, reason: 'not-mergeable', message: expect.stringContaining('not mergeable') }],
    [409, { merged: false, reason: 'head-moved', message: expect.stringContaining('Head branch was modified') }],
  ])('reads a merge answered %i as an outcome', async (status, outcome) => {
    const { octokit, requests } = recordedGithub(() => ({
      status,
      body: status === 200 ? { sha: 'm1', merged: true } : { message: status === 405 ? 'Pull Request is not mergeable' : 'Head branch was modified' },
    }));
    expect(await new PlatformRepoWriter(octokit, LOCATION).mergePullRequest(3, 'head3', 'Promote (#3)', 'Why it merged.')).toEqual(outcome);
    expect(requests[0]).toMatchObject({
      method: 'PUT',
      path: '/repos/platform/gitops/pulls/3/merge',
      body: { sha: 'head3', merge_method: 'squash', commit_title: 'Promote (#3)', commit_message: 'Why it merged.' },
    });
  });

  it('fails a merge GitHub answers with a server error', async () => {
    const { octokit } = recordedGithub(() => ({ status: 500, body: { message: 'boom' } }));
    await expect(new PlatformRepoWriter(octokit, LOCATION).mergePullRequest(3, 'h', 't')).rejects.toThrow(
      'GitHub failed while merging pull request #3 (HTTP 500): boom',
    );
  });

  it.each([
    ['Required status check "promotions/health" is expected.', 'promotions/health'],
    ['Repository rule violations found\n\nRequired status check "ci/build" is expected.', 'ci/build'],
    ['2 of 2 required status checks are expected.', undefined],
  ])('reads a 405 for a required status check as checks-required: %s', async (message, context) => {
    const { octokit } = recordedGithub(() => ({ status: 405, body: { message } }));
    expect(await new PlatformRepoWriter(octokit, LOCATION).mergePullRequest(3, 'h', 't')).toEqual({
      merged: false,
      reason: 'checks-required',
      ...(context ? { context } : {}),
      message: expect.stringContaining('expected'),
    });
  });

  it("reads the base branch's required status checks from its protection and its rulesets, once per ten minutes", async () => {
    let rules: Answer = {
      status: 200,
      body: [
        { type: 'deletion' },
        { type: 'required_status_checks', parameters: { strict_required_status_checks_policy: false, required_status_checks: [{ context: 'ci/build' }] } },
      ],
    };
    const { octokit, requests } = recordedGithub((_method, path) =>
      path.includes('/rules/branches/')
        ? rules
        : {
            status: 200,
            body: {
              name: 'main',
              protection: {
                enabled: true,
                required_status_checks: { enforcement_level: 'non_admins', contexts: ['promotions/health'], checks: [{ context: 'promotions/health', app_id: null }] },
              },
            },
          },
    );
    const writer = new PlatformRepoWriter(octokit, LOCATION);
    expect(await writer.requiredStatusChecks()).toEqual(['promotions/health', 'ci/build']);
    expect(await writer.requiredStatusChecks()).toEqual(['promotions/health', 'ci/build']);
    expect(requests.map(r => r.path).sort()).toEqual(['/repos/platform/gitops/branches/main', '/repos/platform/gitops/rules/branches/main']);

    // A host without rulesets (404): the protection's alone. A refused merge reads them again.
    rules = { status: 404, body: { message: 'Not Found' } };
    const other = recordedGithub((method, path) =>
      path.includes('/rules/branches/') ? rules : method === 'PUT' ? { status: 405, body: { message: 'Required status check "x" is expected.' } } : { status: 200, body: { name: 'main' } },
    );
    const plain = new PlatformRepoWriter(other.octokit, LOCATION);
    expect(await plain.requiredStatusChecks()).toEqual([]);
    await plain.mergePullRequest(1, 'h', 't');
    expect(await plain.requiredStatusChecks()).toEqual([]);
    expect(other.requests.filter(r => r.path === '/repos/platform/gitops/branches/main')).toHaveLength(2);

    // Not known when a read fails.
    rules = { status: 500, body: { message: 'boom' } };
    expect(await new PlatformRepoWriter(other.octokit, LOCATION).requiredStatusChecks()).toBeUndefined();
  });

  it('deletes a branch, one already gone included, but not through a server error', async () => {
    let status = 422;
    const { octokit, requests } = recordedGithub(() => ({ status, body: { message: 'Reference does not exist' } }));
    const writer = new PlatformRepoWriter(octokit, LOCATION);
    await writer.deleteBranch('promotions/p1');
    status = 404;
    await writer.deleteBranch('promotions/p1');
    expect(requests[0]).toMatchObject({ method: 'DELETE', path: '/repos/platform/gitops/git/refs/heads%2Fpromotions%2Fp1' });
    status = 502;
    await expect(writer.deleteBranch('promotions/p1')).rejects.toThrow(/deleting branch promotions\/p1 \(HTTP 502\)/);
  });

  it('reads a file at a ref, and says when it is not there', async () => {
    let status = 200;
    const { octokit, requests } = recordedGithub(() =>
      status === 200
        ? { status, body: { type: 'file', sha: 'b1', content: Buffer.from('kind: Release\n').toString('base64'), encoding: 'base64' } }
        : { status, body: { message: 'Not Found' } },
    );
    const writer = new PlatformRepoWriter(octokit, LOCATION);
    expect(await writer.readFile('r.yaml', 'main')).toEqual({ text: 'kind: Release\n', blobSha: 'b1' });
    expect(requests[0].path).toBe('/repos/platform/gitops/contents/r.yaml?ref=main');
    status = 404;
    expect(await writer.readFileIfPresent('r.yaml', 'main')).toBeUndefined();
    await expect(writer.readFile('r.yaml', 'main')).rejects.toThrow('GitHub failed while reading r.yaml@main (HTTP 404): Not Found');
  });

  it('lists open PRs page by page, each page asked again with its ETag and a 304 answered from the cache', async () => {
    let unchanged = false;
    const { octokit, requests } = recordedGithub((_method, path) => {
      const page = Number(new URL(path, 'http://x').searchParams.get('page'));
      if (unchanged) return { status: 304 };
      return {
        status: 200,
        body: [pull(page)],
        headers: { etag: `"page${page}"`, ...(page === 1 ? { link: '<https://api.github.com/x?page=2>; rel="next"' } : {}) },
      };
    });
    const writer = new PlatformRepoWriter(octokit, LOCATION, mapCache());
    const first = await writer.listOpenPullRequests();
    expect(first.map(pr => pr.number)).toEqual([1, 2]);
    expect(requests.map(r => r.path)).toEqual([
      '/repos/platform/gitops/pulls?state=open&base=main&per_page=100&page=1',
      '/repos/platform/gitops/pulls?state=open&base=main&per_page=100&page=2',
    ]);

    unchanged = true;
    expect(await writer.findOpenPullRequests('marker 2')).toEqual([first[1]]);
    expect(requests.slice(2).map(r => r.headers['if-none-match'])).toEqual(['"page1"', '"page2"']);
  });

  it('publishes a commit status with its description cut to GitHub’s 140 characters', async () => {
    const { octokit, requests } = recordedGithub(() => ({ status: 201, body: {} }));
    await new PlatformRepoWriter(octokit, LOCATION).setStatus({
      sha: 'abc',
      context: 'promotions/health',
      state: 'pending',
      description: 'x'.repeat(200),
    });
    expect(requests[0]).toMatchObject({
      method: 'POST',
      path: '/repos/platform/gitops/statuses/abc',
      body: { context: 'promotions/health', state: 'pending', description: 'x'.repeat(140) },
    });
  });

  it('closes a PR after saying why, and reads a file’s history and a head’s changed files', async () => {
    const { octokit, requests } = recordedGithub((method, path) => {
      if (path.startsWith('/repos/platform/gitops/commits?')) {
        return {
          status: 200,
          body: [
            { sha: 's2', author: { login: 'octocat' }, commit: { message: 'm2', author: { name: 'Octo', date: '2026-01-02T00:00:00Z' } } },
            { sha: 's1', author: null, commit: { message: 'm1', author: { name: 'Robot' }, committer: { date: '2026-01-01T00:00:00Z' } } },
          ],
        };
      }
      if (path.startsWith('/repos/platform/gitops/compare/')) {
        const files = [
          { filename: 'a.yaml', status: 'modified', sha: 'blob-a' },
          { filename: 'b.yaml', status: 'removed', sha: 'blob-b-before' },
        ];
        return { status: 200, body: { files } };
      }
      return { status: method === 'POST' ? 201 : 200, body: {} };
    });
    const writer = new PlatformRepoWriter(octokit, LOCATION);
    await writer.closePullRequest(4, 'Superseded.');
    expect(requests.map(r => [r.method, r.path, r.body])).toEqual([
      ['POST', '/repos/platform/gitops/issues/4/comments', { body: 'Superseded.' }],
      ['PATCH', '/repos/platform/gitops/pulls/4', { state: 'closed' }],
    ]);
    expect(await writer.listCommits('a.yaml', 5)).toEqual([
      { sha: 's2', author: 'octocat', date: '2026-01-02T00:00:00Z', message: 'm2' },
      { sha: 's1', author: 'Robot', date: '2026-01-01T00:00:00Z', message: 'm1' },
    ]);
    expect(requests[2].path).toBe('/repos/platform/gitops/commits?sha=main&path=a.yaml&per_page=5');
    // Each file with its blob at the head: none for a removed one.
    expect(await writer.changedFiles('h1')).toEqual([{ filename: 'a.yaml', blobSha: 'blob-a' }, { filename: 'b.yaml' }]);
    expect(requests[3].path).toBe('/repos/platform/gitops/compare/main...h1');
  });
});
