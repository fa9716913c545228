import { execFileSync } from 'node:child_process';
import { RunningSim } from '../sim';
import {
  fileTestSim,
  octokitFor,
  waitFor,
} from '../__testUtils__/testSim';
import { seedDigest } from '../seed/seedData';
import { setReleaseDigest } from '../platform/releaseFile';

const owner = 'refplat';
const repo = 'platform';

export function promotionFlowSuite(): void {
  describe('a promotion through the GitHub API (octokit with retry + throttling)', () => {
    let sim: RunningSim;
    beforeAll(async () => {
      // The file's simulator with the default options. The seed's alpha/shop test
      // Release is this suite's: no other suite on that simulator changes it.
      sim = await fileTestSim();
    });

    it('branches, edits the Release with its blob sha, opens and merges a PR; main and git log show it', async () => {
      const octokit = octokitFor(sim);
      const releasePath = 'gitops/releases/alpha/shop/test.yaml';

      const { data: mainRef } = await octokit.git.getRef({
        owner,
        repo,
        ref: 'heads/main',
      });
      expect(mainRef.ref).toBe('refs/heads/main');
      const baseSha = mainRef.object.sha;

      const { data: file } = await octokit.repos.getContent({
        owner,
        repo,
        path: releasePath,
        ref: baseSha,
      });
      if (Array.isArray(file) || file.type !== 'file')
        throw new Error('expected a file');
      const before = Buffer.from(file.content, 'base64').toString('utf8');
      expect(before).toContain(
        `storefront:\n      digest: ${seedDigest('alpha', 'shop', 'storefront', 2)}`,
      );
      expect(file.sha).toMatch(/^[0-9a-f]{40}$/);

      const branch = 'promotions/alpha-shop-test-1';
      const { status: refStatus } = await octokit.git.createRef({
        owner,
        repo,
        ref: `refs/heads/${branch}`,
        sha: baseSha,
      });
      expect(refStatus).toBe(201);

      const newDigest = seedDigest('alpha', 'shop', 'storefront', 3);
      const after = setReleaseDigest(before, 'storefront', newDigest);
      const { status: putStatus, data: put } =
        await octokit.repos.createOrUpdateFileContents({
          owner,
          repo,
          path: releasePath,
          branch,
          sha: file.sha,
          message: 'promote alpha/shop dev -> test: storefront',
          content: Buffer.from(after).toString('base64'),
        });
      expect(putStatus).toBe(200);
      expect(put.commit.parents?.map(p => p.sha)).toEqual([baseSha]);
      expect(put.content?.sha).not.toBe(file.sha);

      const { status: prStatus, data: pr } = await octokit.pulls.create({
        owner,
        repo,
        title: 'Promote alpha/shop to test',
        head: branch,
        base: 'main',
        body: 'storefront → v3',
      });
      expect(prStatus).toBe(201);
      expect(pr.state).toBe('open');
      expect(pr.head.ref).toBe(branch);
      expect(pr.head.sha).toBe(put.commit.sha);
      expect(pr.base.ref).toBe('main');
      expect(pr.user?.login).toBe('promotions-bot');

      const { data: files } = await octokit.pulls.listFiles({
        owner,
        repo,
        pull_number: pr.number,
      });
      expect(files).toHaveLength(1);
      expect(files[0].filename).toBe(releasePath);
      expect(files[0].patch).toContain(`+      digest: ${newDigest}`);

      // GitHub computes mergeability in the background: poll until it is known.
      const fetched = await waitFor(async () => {
        const { data } = await octokit.pulls.get({
          owner,
          repo,
          pull_number: pr.number,
        });
        return data.mergeable === null ? undefined : data;
      });
      expect(fetched.mergeable).toBe(true);

      const { data: merge } = await octokit.pulls.merge({
        owner,
        repo,
        pull_number: pr.number,
        sha: pr.head.sha,
      });
      expect(merge.merged).toBe(true);

      const { data: mergedPr } = await octokit.pulls.get({
        owner,
        repo,
        pull_number: pr.number,
      });
      expect(mergedPr.merged).toBe(true);
      expect(mergedPr.state).toBe('closed');
      expect(mergedPr.merge_commit_sha).toBe(merge.sha);
      expect(mergedPr.merged_at).toBeTruthy();

      const { data: mainAfter } = await octokit.git.getRef({
        owner,
        repo,
        ref: 'heads/main',
      });
      expect(mainAfter.object.sha).toBe(merge.sha);
      const { data: mergeCommit } = await octokit.git.getCommit({
        owner,
        repo,
        commit_sha: merge.sha,
      });
      expect(mergeCommit.parents.map(p => p.sha)).toEqual([
        baseSha,
        put.commit.sha,
      ]);

      const { data: onMain } = await octokit.repos.getContent({
        owner,
        repo,
        path: releasePath,
        ref: 'main',
      });
      if (Array.isArray(onMain) || onMain.type !== 'file')
        throw new Error('expected a file');
      // Only the digest changed: comments and every other byte are as they were.
      expect(Buffer.from(onMain.content, 'base64').toString('utf8')).toBe(after);
      expect(
        after.replace(newDigest, seedDigest('alpha', 'shop', 'storefront', 2)),
      ).toBe(before);

      const { data: history } = await octokit.repos.listCommits({
        owner,
        repo,
        path: releasePath,
        per_page: 5,
      });
      // Like `git log -- path` (and GitHub): the merge commit is simplified away, the edit remains.
      expect(history[0].sha).toBe(put.commit.sha);
      expect(history[0].commit.message).toBe(
        'promote alpha/shop dev -> test: storefront',
      );
      expect(history[0].author?.login).toBe('promotions-bot');
      expect(history[1].commit.message).toBe(
        'promote alpha/shop dev -> test: storefront, cart, checkout',
      );

      // The real repository on disk agrees.
      const log = execFileSync(
        'git',
        ['--git-dir', sim.repoDir, 'log', '--format=%H %an %s', '-3', 'main'],
        { encoding: 'utf8' },
      );
      const lines = log.trim().split('\n');
      expect(lines[0]).toBe(
        `${merge.sha} promotions-bot Merge pull request #${pr.number} from ${owner}/${branch}`,
      );
      expect(lines[1]).toBe(
        `${put.commit.sha} promotions-bot promote alpha/shop dev -> test: storefront`,
      );
      const shown = execFileSync(
        'git',
        ['--git-dir', sim.repoDir, 'show', `main:${releasePath}`],
        { encoding: 'utf8' },
      );
      expect(shown).toBe(after);
    });

    it('serves a commit with its files and patch, and a compare between stages', async () => {
      const octokit = octokitFor(sim);
      const { data: commits } = await octokit.repos.listCommits({
        owner,
        repo,
        per_page: 100,
      });
      const seedCommit = commits.find(
        c => c.commit.message === 'ci: alpha/shop storefront v3 to dev',
      )!;
      expect(seedCommit.author?.login).toBe('ci-bot');
      const { data: single } = await octokit.repos.getCommit({
        owner,
        repo,
        ref: seedCommit.sha,
      });
      expect(single.files).toEqual([
        expect.objectContaining({
          filename: 'gitops/releases/alpha/shop/dev.yaml',
          status: 'modified',
          additions: 1,
          deletions: 1,
          patch: expect.stringContaining(
            `-      digest: ${seedDigest('alpha', 'shop', 'storefront', 2)}`,
          ),
        }),
      ]);

      const { data: compare } = await octokit.repos.compareCommitsWithBasehead({
        owner,
        repo,
        basehead: `${commits[commits.length - 1].sha}...main`,
      });
      expect(compare.status).toBe('ahead');
      expect(compare.ahead_by).toBe(compare.commits.length);
      expect(compare.behind_by).toBe(0);
      expect(compare.files?.length).toBeGreaterThan(0);
    });
  });
}
