import { execFileSync } from 'node:child_process';
import { RunningSim } from '../sim';
import { digestFor } from '../seed/digests';
import { setReleaseDigest } from '../platform/releaseFile';
import {
  fileTestSim,
  octokitFor,
  postJson,
} from '../__testUtils__/testSim';

const owner = 'refplat';
const repo = 'platform';
const releasePath = 'gitops/releases/alpha/shop/staging.yaml';

/** The status of a rejected octokit call (octokit throws RequestError for non-2xx). */
async function statusOf(
  promise: Promise<unknown>,
): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (error: any) {
    return {
      status: error.status,
      message: String(error.response?.data?.message ?? error.message),
    };
  }
  throw new Error('expected the call to fail');
}

export function githubBehavioursSuite(): void {
  describe('GitHub behaviours the promotions backend relies on', () => {
    let sim: RunningSim;
    let branchCounter = 0;

    beforeAll(async () => {
      // The file's simulator with the default options; the suites before this one
      // leave it at rest. This one merges into alpha/shop's staging Release.
      sim = await fileTestSim();
    });
    afterEach(() => sim.control.clearFaults());

    // First, before this suite's tests use up or fault the rate limits.
    describe('GET /repos/{o}/{r}/tarball/{ref}', () => {
      const git = (...args: string[]) =>
        execFileSync('git', ['--git-dir', sim.repoDir, ...args], { encoding: 'utf8' }).trim();

      it('answers 302 to a codeload link that serves the commit as a gzipped tar, entries under <owner>-<repo>-<sha7>/', async () => {
        const head = git('rev-parse', 'main');
        sim.control.clearRequests();
        const response = await octokitFor(sim).rest.repos.downloadTarballArchive({ owner, repo, ref: 'main' });
        expect(response.status).toBe(200);
        const calls = sim.control.getRequests('github').map(call => `${call.status} ${call.path}`);
        expect(calls).toEqual([
          `302 /repos/${owner}/${repo}/tarball/main`,
          `200 /${owner}/${repo}/legacy.tar.gz/${head}`,
        ]);

        const listing = execFileSync('tar', ['-tzf', '-'], { input: Buffer.from(response.data as ArrayBuffer) })
          .toString('utf8')
          .split('\n')
          .filter(name => name && !name.endsWith('/'));
        const files = git('ls-tree', '-r', '--name-only', head).split('\n');
        expect(listing.sort()).toEqual(files.map(file => `${owner}-${repo}-${head.slice(0, 7)}/${file}`).sort());
      });

      it('serves a commit by sha, and 404 for an unknown ref', async () => {
        const head = git('rev-parse', 'main');
        const bySha = await octokitFor(sim).rest.repos.downloadTarballArchive({ owner, repo, ref: head });
        expect(Buffer.from(bySha.data as ArrayBuffer).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
        await expect(
          octokitFor(sim).rest.repos.downloadTarballArchive({ owner, repo, ref: 'no-such-branch' }),
        ).rejects.toMatchObject({ status: 404 });
      });

      it('refuses a codeload link whose token is not one it issued', async () => {
        const head = git('rev-parse', 'main');
        const forged = await fetch(`${sim.url}/codeload/${owner}/${repo}/legacy.tar.gz/${head}?token=${Date.now() + 60_000}.00`);
        expect(forged.status).toBe(404);
      });
    });

    /** A branch from main with the staging Release's storefront digest changed. */
    async function branchWithEdit(token = 'sim-github-token') {
      const octokit = octokitFor(sim, token);
      const branch = `test/edit-${++branchCounter}`;
      const { data: main } = await octokit.git.getRef({
        owner,
        repo,
        ref: 'heads/main',
      });
      await octokit.git.createRef({
        owner,
        repo,
        ref: `refs/heads/${branch}`,
        sha: main.object.sha,
      });
      const { data: file } = (await octokit.repos.getContent({
        owner,
        repo,
        path: releasePath,
        ref: branch,
      })) as any;
      const text = Buffer.from(file.content, 'base64').toString('utf8');
      const { data: put } = await octokit.repos.createOrUpdateFileContents({
        owner,
        repo,
        path: releasePath,
        branch,
        sha: file.sha,
        message: `edit ${branch}`,
        content: Buffer.from(
          setReleaseDigest(text, 'storefront', digestFor(branch)),
        ).toString('base64'),
      });
      return {
        branch,
        headSha: put.commit.sha!,
        blobSha: file.sha as string,
        mainSha: main.object.sha,
      };
    }

    async function openPull(token = 'sim-github-token') {
      const edit = await branchWithEdit(token);
      const { data: pr } = await octokitFor(sim, token).pulls.create({
        owner,
        repo,
        title: `PR ${edit.branch}`,
        head: `${owner}:${edit.branch}`,
        base: 'main',
      });
      return { ...edit, number: pr.number };
    }

    it('answers 401 Bad credentials for an unknown token and 404 for another repository', async () => {
      expect(
        await statusOf(octokitFor(sim, 'nope').repos.get({ owner, repo })),
      ).toEqual({ status: 401, message: 'Bad credentials' });
      expect(
        (await statusOf(octokitFor(sim).repos.get({ owner, repo: 'other' })))
          .status,
      ).toBe(404);
      const { data } = await octokitFor(sim).repos.get({ owner, repo });
      expect(data).toMatchObject({
        full_name: 'refplat/platform',
        default_branch: 'main',
      });
    });

    it('answers 422 when creating a ref that exists, and 422/204 around ref updates and deletes', async () => {
      const octokit = octokitFor(sim);
      const { data: main } = await octokit.git.getRef({
        owner,
        repo,
        ref: 'heads/main',
      });
      const exists = await statusOf(
        octokit.git.createRef({
          owner,
          repo,
          ref: 'refs/heads/main',
          sha: main.object.sha,
        }),
      );
      expect(exists).toEqual({
        status: 422,
        message: 'Reference already exists',
      });

      const { branch, headSha } = await branchWithEdit();
      const { data: older } = await octokit.git.getCommit({
        owner,
        repo,
        commit_sha: main.object.sha,
      });
      const notFastForward = await statusOf(
        octokit.git.updateRef({
          owner,
          repo,
          ref: `heads/${branch}`,
          sha: older.parents[0].sha,
        }),
      );
      expect(notFastForward).toEqual({
        status: 422,
        message: 'Update is not a fast forward',
      });
      const { data: forced } = await octokit.git.updateRef({
        owner,
        repo,
        ref: `heads/${branch}`,
        sha: main.object.sha,
        force: true,
      });
      expect(forced.object.sha).toBe(main.object.sha);
      expect(headSha).not.toBe(main.object.sha);

      const { data: matching } = await octokit.git.listMatchingRefs({
        owner,
        repo,
        ref: `heads/${branch}`,
      });
      expect(matching.map(ref => ref.ref)).toEqual([`refs/heads/${branch}`]);
      expect(
        (await octokit.git.deleteRef({ owner, repo, ref: `heads/${branch}` }))
          .status,
      ).toBe(204);
      expect(
        (
          await statusOf(
            octokit.git.deleteRef({ owner, repo, ref: `heads/${branch}` }),
          )
        ).status,
      ).toBe(422);
    });

    it('answers 409 for a contents write with a stale blob sha and 422 when the sha is missing', async () => {
      const octokit = octokitFor(sim);
      const { branch, blobSha } = await branchWithEdit();
      const content = Buffer.from('kind: Release\n').toString('base64');
      const stale = await statusOf(
        octokit.repos.createOrUpdateFileContents({
          owner,
          repo,
          path: releasePath,
          branch,
          sha: blobSha,
          message: 'stale',
          content,
        }),
      );
      expect(stale).toEqual({
        status: 409,
        message: `${releasePath} does not match ${blobSha}`,
      });
      const missing = await statusOf(
        octokit.repos.createOrUpdateFileContents({
          owner,
          repo,
          path: releasePath,
          branch,
          message: 'no sha',
          content,
        }),
      );
      expect(missing.status).toBe(422);
      const { status } = await octokit.repos.createOrUpdateFileContents({
        owner,
        repo,
        path: 'docs/new.md',
        branch,
        message: 'new file',
        content,
      });
      expect(status).toBe(201);
    });

    it('refuses a second open PR for the same head (422) and lists PRs by head', async () => {
      const octokit = octokitFor(sim);
      const { branch, number } = await openPull();
      const duplicate = await statusOf(
        octokit.pulls.create({
          owner,
          repo,
          title: 'again',
          head: branch,
          base: 'main',
        }),
      );
      expect(duplicate.status).toBe(422);
      const { data: listed } = await octokit.pulls.list({
        owner,
        repo,
        head: `${owner}:${branch}`,
        state: 'open',
      });
      expect(listed.map(pr => pr.number)).toEqual([number]);
      const missingHead = await statusOf(
        octokit.pulls.create({
          owner,
          repo,
          title: 'x',
          head: 'no-such-branch',
          base: 'main',
        }),
      );
      expect(missingHead.status).toBe(422);
    });

    it('answers 409 when merging with a stale head sha, then merges with the right one', async () => {
      const octokit = octokitFor(sim);
      const { number, mainSha, headSha } = await openPull();
      const stale = await statusOf(
        octokit.pulls.merge({ owner, repo, pull_number: number, sha: mainSha }),
      );
      expect(stale).toEqual({
        status: 409,
        message: 'Head branch was modified. Review and try the merge again.',
      });
      const { data } = await octokit.pulls.merge({
        owner,
        repo,
        pull_number: number,
        sha: headSha,
        merge_method: 'squash',
      });
      expect(data.merged).toBe(true);
      const { data: squashed } = await octokit.git.getCommit({
        owner,
        repo,
        commit_sha: data.sha,
      });
      expect(squashed.parents).toHaveLength(1);
      expect(
        (
          await statusOf(
            octokit.pulls.merge({ owner, repo, pull_number: number }),
          )
        ).status,
      ).toBe(405);
    });

    it('answers 405 when merging a closed PR', async () => {
      const octokit = octokitFor(sim);
      const { number } = await openPull();
      const { data: closed } = await octokit.pulls.update({
        owner,
        repo,
        pull_number: number,
        state: 'closed',
      });
      expect(closed.state).toBe('closed');
      expect(
        await statusOf(octokit.pulls.merge({ owner, repo, pull_number: number })),
      ).toEqual({
        status: 405,
        message: 'Pull Request is not mergeable',
      });
    });

    it('answers 405 for a PR whose branch conflicts with main', async () => {
      const octokit = octokitFor(sim);
      const first = await openPull();
      const second = await openPull();
      await octokit.pulls.merge({ owner, repo, pull_number: first.number });
      const read = async () =>
        (await octokit.pulls.get({ owner, repo, pull_number: second.number }))
          .data;
      // The base moved, so GitHub recomputes mergeability: unknown on the first read.
      expect(await read()).toMatchObject({
        mergeable: null,
        mergeable_state: 'unknown',
      });
      expect(await read()).toMatchObject({
        mergeable: false,
        mergeable_state: 'dirty',
      });
      expect(
        (
          await statusOf(
            octokit.pulls.merge({ owner, repo, pull_number: second.number }),
          )
        ).status,
      ).toBe(405);
    });

    it('answers 422 when the PR author approves their own PR; someone else may', async () => {
      const { number } = await openPull('sim-github-token');
      const own = await statusOf(
        octokitFor(sim).pulls.createReview({
          owner,
          repo,
          pull_number: number,
          event: 'APPROVE',
        }),
      );
      expect(own.status).toBe(422);
      expect(own.message).toBe('Unprocessable Entity');
      const error = await octokitFor(sim)
        .pulls.createReview({
          owner,
          repo,
          pull_number: number,
          event: 'APPROVE',
        })
        .catch(e => e);
      expect(error.response.data.errors).toEqual([
        'Can not approve your own pull request',
      ]);

      const { data: review } = await octokitFor(
        sim,
        'sim-alice-token',
      ).pulls.createReview({
        owner,
        repo,
        pull_number: number,
        event: 'APPROVE',
        body: 'ok',
      });
      expect(review).toMatchObject({
        state: 'APPROVED',
        user: { login: 'alice' },
      });
      const { data: reviews } = await octokitFor(sim).pulls.listReviews({
        owner,
        repo,
        pull_number: number,
      });
      expect(reviews.map(r => [r.user?.login, r.state])).toEqual([
        ['alice', 'APPROVED'],
      ]);
    });

    it('records commit statuses (combined state), PR comments and labels', async () => {
      const octokit = octokitFor(sim);
      const { number, headSha } = await openPull();
      await octokit.repos.createCommitStatus({
        owner,
        repo,
        sha: headSha,
        state: 'pending',
        context: 'promotions/approval',
      });
      expect(
        (
          await octokit.repos.getCombinedStatusForRef({
            owner,
            repo,
            ref: headSha,
          })
        ).data.state,
      ).toBe('pending');
      const { status } = await octokit.repos.createCommitStatus({
        owner,
        repo,
        sha: headSha,
        state: 'success',
        context: 'promotions/approval',
        description: 'approved by alice',
      });
      expect(status).toBe(201);
      const { data: combined } = await octokit.repos.getCombinedStatusForRef({
        owner,
        repo,
        ref: headSha,
      });
      expect(combined.state).toBe('success');
      expect(
        combined.statuses.map(s => [s.context, s.state, s.description]),
      ).toEqual([['promotions/approval', 'success', 'approved by alice']]);
      expect(
        (
          await octokit.repos.listCommitStatusesForRef({
            owner,
            repo,
            ref: headSha,
          })
        ).data,
      ).toHaveLength(2);

      await octokit.issues.createComment({
        owner,
        repo,
        issue_number: number,
        body: 'Approved by alice',
      });
      const { data: comments } = await octokit.issues.listComments({
        owner,
        repo,
        issue_number: number,
      });
      expect(comments.map(c => [c.user?.login, c.body])).toEqual([
        ['promotions-bot', 'Approved by alice'],
      ]);

      await octokit.issues.createLabel({
        owner,
        repo,
        name: 'promotion',
        color: '0e8a16',
      });
      expect(
        (
          await statusOf(
            octokit.issues.createLabel({ owner, repo, name: 'promotion' }),
          )
        ).status,
      ).toBe(422);
      await octokit.issues.addLabels({
        owner,
        repo,
        issue_number: number,
        labels: ['promotion', 'stage:staging'],
      });
      const { data: pr } = await octokit.pulls.get({
        owner,
        repo,
        pull_number: number,
      });
      expect(pr.labels.map(l => l.name)).toEqual(['promotion', 'stage:staging']);
      const { data: labels } = await octokit.issues.listLabelsForRepo({
        owner,
        repo,
      });
      expect(labels.map(l => l.name).sort()).toEqual([
        'promotion',
        'stage:staging',
      ]);
    });

    it('sends a strong ETag on GETs and answers If-None-Match with a free 304', async () => {
      const url = `${sim.githubApiUrl}/repos/${owner}/${repo}/contents/${releasePath}?ref=main`;
      const headers = { authorization: 'token sim-bob-token' };
      const first = await fetch(url, { headers });
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[0-9a-f]+"$/);
      const remaining = Number(first.headers.get('x-ratelimit-remaining'));

      const second = await fetch(url, {
        headers: { ...headers, 'if-none-match': etag },
      });
      expect(second.status).toBe(304);
      expect(await second.text()).toBe('');
      expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(remaining);

      const third = await fetch(url, {
        headers: { ...headers, 'if-none-match': '"stale"' },
      });
      expect(third.status).toBe(200);
      expect(Number(third.headers.get('x-ratelimit-remaining'))).toBe(
        remaining - 1,
      );

      // octokit surfaces the 304 as a RequestError with status 304.
      const viaOctokit = await statusOf(
        octokitFor(sim, 'sim-bob-token').repos.getContent({
          owner,
          repo,
          path: releasePath,
          ref: 'main',
          headers: { 'if-none-match': etag },
        }),
      );
      expect(viaOctokit.status).toBe(304);
    });

    it('sends rate-limit headers and a 403 once the limit is used up (conditional GETs stay free)', async () => {
      const url = `${sim.githubApiUrl}/repos/${owner}/${repo}`;
      const before = await fetch(url, {
        headers: { authorization: 'Bearer sim-alice-token' },
      });
      expect(before.headers.get('x-ratelimit-limit')).toBe('5000');
      expect(before.headers.get('x-ratelimit-resource')).toBe('core');
      expect(Number(before.headers.get('x-ratelimit-used'))).toBeGreaterThan(0);
      expect(Number(before.headers.get('x-ratelimit-reset'))).toBeGreaterThan(
        Date.now() / 1000,
      );
      const etag = before.headers.get('etag')!;

      sim.control.setGithubRateLimitUsed('alice', 5000);
      const limited = await fetch(url, {
        headers: { authorization: 'Bearer sim-alice-token' },
      });
      expect(limited.status).toBe(403);
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      expect((await limited.json()).message).toMatch(
        /^API rate limit exceeded for /,
      );
      const conditional = await fetch(url, {
        headers: {
          authorization: 'Bearer sim-alice-token',
          'if-none-match': etag,
        },
      });
      expect(conditional.status).toBe(304);
      sim.control.setGithubRateLimitUsed('alice', 0);
    });

    it('paginates with per_page/page and a Link header', async () => {
      const response = await fetch(
        `${sim.githubApiUrl}/repos/${owner}/${repo}/commits?per_page=2`,
        {
          headers: { authorization: 'token sim-github-token' },
        },
      );
      expect((await response.json()).length).toBe(2);
      expect(response.headers.get('link')).toMatch(
        /<[^>]+page=2[^>]*>; rel="next", <[^>]+>; rel="last"/,
      );
      const all = await octokitFor(sim).paginate(
        octokitFor(sim).repos.listCommits,
        { owner, repo, per_page: 5 },
      );
      expect(all.length).toBeGreaterThanOrEqual(13);
    });

    it('injects 5xx faults that the retry plugin recovers from', async () => {
      sim.control.clearRequests();
      const { status } = await postJson(`${sim.url}/_sim/faults`, {
        target: 'github',
        method: 'GET',
        path: '/repos/refplat/platform/branches/main',
        count: 2,
        status: 502,
      });
      expect(status).toBe(201);
      const { data } = await octokitFor(sim).repos.getBranch({
        owner,
        repo,
        branch: 'main',
      });
      expect(data.name).toBe('main');
      const calls = sim.control
        .getRequests('github')
        .filter(r => r.path.endsWith('/branches/main'));
      expect(calls.map(c => c.status)).toEqual([502, 502, 200]);
    });

    it('injects a secondary rate limit (403 + retry-after) that the throttling plugin waits out', async () => {
      const events: string[] = [];
      sim.control.addFault({
        target: 'github',
        path: '/git/ref/heads/main',
        count: 1,
        kind: 'secondary-rate-limit',
      });
      const raw = await fetch(
        `${sim.githubApiUrl}/repos/${owner}/${repo}/git/ref/heads/main`,
        { headers: { authorization: 'token sim-github-token' } },
      );
      expect(raw.status).toBe(403);
      expect(raw.headers.get('retry-after')).toBe('1');
      expect((await raw.json()).message).toContain('secondary rate limit');

      sim.control.addFault({
        target: 'github',
        path: '/git/ref/heads/main',
        count: 1,
        kind: 'secondary-rate-limit',
      });
      const { data } = await octokitFor(
        sim,
        'sim-github-token',
        events,
      ).git.getRef({ owner, repo, ref: 'heads/main' });
      expect(data.ref).toBe('refs/heads/main');
      expect(events).toEqual([
        expect.stringMatching(/^secondary-rate-limit GET .* retryAfter=1$/),
      ]);
    });

    it('deletes a merged PR\'s head branch itself when the repository says delete_branch_on_merge', async () => {
      const deleting = await fileTestSim({ deleteBranchOnMerge: true });
      const octokit = octokitFor(deleting);
      expect((await octokit.repos.get({ owner, repo })).data.delete_branch_on_merge).toBe(true);
      expect((await octokitFor(sim).repos.get({ owner, repo })).data.delete_branch_on_merge).toBe(false);
      const { data: main } = await octokit.git.getRef({ owner, repo, ref: 'heads/main' });
      await octokit.git.createRef({ owner, repo, ref: 'refs/heads/auto-delete', sha: main.object.sha });
      await octokit.repos.createOrUpdateFileContents({
        owner,
        repo,
        path: 'docs/auto-delete.md',
        branch: 'auto-delete',
        message: 'a change to merge',
        content: Buffer.from('merged\n').toString('base64'),
      });
      const { data: pr } = await octokit.pulls.create({ owner, repo, title: 'auto-delete', head: 'auto-delete', base: 'main' });
      await octokit.pulls.merge({ owner, repo, pull_number: pr.number, merge_method: 'squash' });
      expect(await statusOf(octokit.git.getRef({ owner, repo, ref: 'heads/auto-delete' }))).toMatchObject({ status: 404 });
      await deleting.stop();
    });

    it("protects main with the required status checks when asked: the branch shows them, a merge needs each one's success", async () => {
      const protectedSim = await fileTestSim({ requiredStatusChecks: ['promotions/health'] });
      const octokit = octokitFor(protectedSim);
      const { data: branch } = await octokit.repos.getBranch({ owner, repo, branch: 'main' });
      expect(branch.protection).toMatchObject({ enabled: true, required_status_checks: { contexts: ['promotions/health'] } });
      expect((await octokit.repos.getBranchRules({ owner, repo, branch: 'main' })).data).toEqual([]);
      const { data: unprotected } = await octokitFor(sim).repos.getBranch({ owner, repo, branch: 'main' });
      expect(unprotected.protection?.required_status_checks?.contexts).toEqual([]);

      const { data: main } = await octokit.git.getRef({ owner, repo, ref: 'heads/main' });
      await octokit.git.createRef({ owner, repo, ref: 'refs/heads/checked', sha: main.object.sha });
      const { data: change } = await octokit.repos.createOrUpdateFileContents({
        owner,
        repo,
        path: 'docs/checked.md',
        branch: 'checked',
        message: 'a change needing its checks',
        content: Buffer.from('checked\n').toString('base64'),
      });
      const head = change.commit.sha!;
      const { data: pr } = await octokit.pulls.create({ owner, repo, title: 'checked', head: 'checked', base: 'main' });
      const merge = () => octokit.pulls.merge({ owner, repo, pull_number: pr.number, sha: head, merge_method: 'squash' });
      expect(await statusOf(merge())).toMatchObject({ status: 405, message: 'Required status check "promotions/health" is expected.' });
      await octokit.repos.createCommitStatus({ owner, repo, sha: head, context: 'promotions/health', state: 'success' });
      expect((await merge()).data.merged).toBe(true);
      await protectedSim.stop();
    });

    it('enforces the secondary write limit when asked: writes over it answer 403 with retry-after, reads go on', async () => {
      const limited = await fileTestSim({ writeLimits: { perMinute: 2, perHour: 500 } });
      const headers = { authorization: 'token sim-github-token', 'content-type': 'application/json' };
      const main = await (
        await fetch(`${limited.githubApiUrl}/repos/${owner}/${repo}/git/ref/heads/main`, { headers })
      ).json();
      const createRef = (name: string) =>
        fetch(`${limited.githubApiUrl}/repos/${owner}/${repo}/git/refs`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ ref: `refs/heads/write-limit-${name}`, sha: main.object.sha }),
        });
      expect((await createRef('1')).status).toBe(201);
      expect((await createRef('2')).status).toBe(201);
      const refused = await createRef('3');
      expect(refused.status).toBe(403);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect((await refused.json()).message).toContain('secondary rate limit');
      const read = await fetch(`${limited.githubApiUrl}/repos/${owner}/${repo}/git/ref/heads/write-limit-3`, {
        headers,
      });
      expect(read.status).toBe(404);
      // Another identity has its own budget.
      const asAlice = await fetch(`${limited.githubApiUrl}/repos/${owner}/${repo}/git/refs`, {
        method: 'POST',
        headers: { ...headers, authorization: 'token sim-alice-token' },
        body: JSON.stringify({ ref: 'refs/heads/write-limit-alice', sha: main.object.sha }),
      });
      expect(asAlice.status).toBe(201);
      await limited.stop();
    });

    it('injects a primary rate limit that the throttling plugin waits out', async () => {
      const events: string[] = [];
      sim.control.addFault({
        target: 'github',
        path: '^/repos/refplat/platform$',
        count: 1,
        kind: 'primary-rate-limit',
      });
      const { data } = await octokitFor(
        sim,
        'sim-github-token',
        events,
      ).repos.get({ owner, repo });
      expect(data.name).toBe('platform');
      expect(events).toEqual([expect.stringMatching(/^rate-limit GET /)]);
    });
  });
}
