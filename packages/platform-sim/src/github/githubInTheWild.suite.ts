import { execFileSync } from 'node:child_process';
import { RunningSim } from '../sim';
import {
  fileTestSim,
  octokitFor,
} from '../__testUtils__/testSim';

const owner = 'refplat';
const repo = 'platform';

/** Fields of GitHub's `pull-request` that its `pull-request-simple` (the list entry) does not have. */
const FULL_PULL_ONLY = [
  'merged',
  'mergeable',
  'rebaseable',
  'mergeable_state',
  'merged_by',
  'comments',
  'review_comments',
  'maintainer_can_modify',
  'commits',
  'additions',
  'deletions',
  'changed_files',
];

/** The required fields of GitHub's `pull-request-simple` (@octokit/openapi, components/schemas). */
const SIMPLE_PULL_REQUIRED = [
  '_links',
  'assignee',
  'labels',
  'base',
  'body',
  'closed_at',
  'comments_url',
  'commits_url',
  'created_at',
  'diff_url',
  'head',
  'html_url',
  'id',
  'node_id',
  'issue_url',
  'merge_commit_sha',
  'merged_at',
  'milestone',
  'number',
  'patch_url',
  'review_comment_url',
  'review_comments_url',
  'statuses_url',
  'state',
  'locked',
  'title',
  'updated_at',
  'url',
  'user',
  'author_association',
  'auto_merge',
];

export function githubInTheWildSuite(): void {
  describe('GitHub behaviours the plugin meets in the wild', () => {
    let sim: RunningSim;
    let branchCounter = 0;
    const TREE_ENTRY_LIMIT = 12;

    beforeAll(async () => {
      // A simulator of its own (no other suite asks for this tree entry limit), so
      // the rate limits it counts per identity are this suite's alone.
      sim = await fileTestSim({ treeEntryLimit: TREE_ENTRY_LIMIT });
    });

    /**
     * Pushes `count` commits on top of `parent` to a branch, as a `git push` would (one
     * git fast-import, so hundreds of commits take a moment); the first adds
     * notes/<label>.txt. Returns the commit shas, oldest first.
     */
    function pushChain(
      branch: string,
      parent: string,
      count: number,
      label: string,
    ): string[] {
      const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
      const commands: string[] = [];
      for (let i = 0; i < count; i++) {
        commands.push(
          `commit refs/heads/${branch}\n`,
          `committer Wild Test <wild@example.com> ${1767225600 + i} +0000\n`,
          data(`${label} ${i + 1}`),
        );
        if (i === 0)
          commands.push(
            `from ${parent}\n`,
            `M 100644 inline notes/${label}.txt\n`,
            data(`${label}\n`),
          );
      }
      execFileSync('git', ['fast-import', '--quiet'], {
        cwd: sim.repoDir,
        input: commands.join(''),
      });
      return execFileSync(
        'git',
        ['rev-list', '--reverse', `${parent}..refs/heads/${branch}`],
        { cwd: sim.repoDir, encoding: 'utf8' },
      )
        .trim()
        .split('\n');
    }

    const newBranch = () => `wild/${++branchCounter}`;

    async function mainSha(): Promise<string> {
      const { data } = await octokitFor(sim).git.getRef({
        owner,
        repo,
        ref: 'heads/main',
      });
      return data.object.sha;
    }

    it('says mergeable null on the first read after a PR is created or its head moves, and computes it by the next read', async () => {
      const octokit = octokitFor(sim);
      const branch = newBranch();
      const [first] = pushChain(branch, await mainSha(), 1, 'mergeable');
      const { data: created } = await octokit.pulls.create({
        owner,
        repo,
        title: 'mergeability',
        head: branch,
        base: 'main',
      });
      expect(created).toMatchObject({
        mergeable: null,
        mergeable_state: 'unknown',
      });
      const read = async () =>
        (await octokit.pulls.get({ owner, repo, pull_number: created.number }))
          .data;
      expect(await read()).toMatchObject({
        mergeable: null,
        mergeable_state: 'unknown',
      });
      expect(await read()).toMatchObject({
        mergeable: true,
        mergeable_state: 'clean',
      });
      expect(await read()).toMatchObject({ mergeable: true });

      const [moved] = pushChain(branch, first, 1, 'mergeable-moved');
      const afterMove = await read();
      expect(afterMove.head.sha).toBe(moved);
      expect(afterMove).toMatchObject({
        mergeable: null,
        mergeable_state: 'unknown',
      });
      expect(await read()).toMatchObject({
        mergeable: true,
        mergeable_state: 'clean',
      });
    });

    it('lists pull requests in the pull-request-simple shape', async () => {
      const octokit = octokitFor(sim);
      const branch = newBranch();
      const [sha] = pushChain(branch, await mainSha(), 1, 'simple');
      const { data: created } = await octokit.pulls.create({
        owner,
        repo,
        title: 'simple shape',
        head: branch,
        base: 'main',
      });
      const { data: list } = await octokit.pulls.list({
        owner,
        repo,
        head: `${owner}:${branch}`,
      });
      expect(list).toHaveLength(1);
      const [entry] = list as unknown as Array<Record<string, unknown>>;
      expect(Object.keys(entry)).toEqual(
        expect.arrayContaining(SIMPLE_PULL_REQUIRED),
      );
      for (const field of FULL_PULL_ONLY) expect(entry).not.toHaveProperty(field);
      expect(entry).toMatchObject({
        number: created.number,
        head: { ref: branch, sha },
        merged_at: null,
        _links: { self: { href: created.url } },
      });
      // The single pull request keeps the full shape.
      const { data: single } = await octokit.pulls.get({
        owner,
        repo,
        pull_number: created.number,
      });
      for (const field of FULL_PULL_ONLY) expect(single).toHaveProperty(field);
    });

    it('truncates a recursive tree beyond the entry limit', async () => {
      const octokit = octokitFor(sim);
      const { data: full } = await octokit.git.getTree({
        owner,
        repo,
        tree_sha: 'main',
        recursive: '1',
      });
      expect(full.truncated).toBe(true);
      expect(full.tree).toHaveLength(TREE_ENTRY_LIMIT);

      // One level of the seeded repository (gitops/) fits.
      const { data: top } = await octokit.git.getTree({
        owner,
        repo,
        tree_sha: 'main',
      });
      expect(top.truncated).toBe(false);
      expect(top.tree.map(entry => entry.path)).toContain('gitops');
    });

    it('lists a comparison oldest first: the newest 250 without paging, every commit page by page', async () => {
      const octokit = octokitFor(sim);
      const head = newBranch();
      const chain = pushChain(head, await mainSha(), 260, 'compare');
      const basehead = `main...${head}`;

      const unpaged = await octokit.request(
        'GET /repos/{owner}/{repo}/compare/{basehead}',
        { owner, repo, basehead },
      );
      expect(unpaged.data.total_commits).toBe(260);
      expect(unpaged.data.ahead_by).toBe(260);
      expect(unpaged.data.commits.map(c => c.sha)).toEqual(chain.slice(-250));
      expect(unpaged.headers.link).toBeUndefined();
      expect(unpaged.data.files?.map(f => f.filename)).toEqual([
        'notes/compare.txt',
      ]);

      const page = (n: number) =>
        octokit.request('GET /repos/{owner}/{repo}/compare/{basehead}', {
          owner,
          repo,
          basehead,
          per_page: 100,
          page: n,
        });
      const [first, third] = [await page(1), await page(3)];
      expect(first.data.total_commits).toBe(260);
      expect(first.data.commits.map(c => c.sha)).toEqual(chain.slice(0, 100));
      expect(first.headers.link).toMatch(/rel="next"/);
      expect(first.data.files).toHaveLength(1);
      expect(third.data.commits.map(c => c.sha)).toEqual(chain.slice(200));
      expect(third.data.files).toEqual([]);
      expect(third.headers.link).toMatch(/rel="prev"/);
      expect(third.headers.link).not.toMatch(/rel="next"/);
    });

    it('runs the rate limit down per identity and sends every x-ratelimit header; a 304 costs nothing', async () => {
      const url = `${sim.githubApiUrl}/repos/${owner}/${repo}`;
      const as = (token: string, etag?: string) =>
        fetch(url, {
          headers: {
            authorization: `token ${token}`,
            ...(etag ? { 'if-none-match': etag } : {}),
          },
        });
      const numbers = (response: Response) => ({
        limit: Number(response.headers.get('x-ratelimit-limit')),
        remaining: Number(response.headers.get('x-ratelimit-remaining')),
        used: Number(response.headers.get('x-ratelimit-used')),
        reset: Number(response.headers.get('x-ratelimit-reset')),
      });
      const first = await as('sim-alice-token');
      const second = await as('sim-alice-token');
      const bob = await as('sim-bob-token');
      const notModified = await as(
        'sim-alice-token',
        second.headers.get('etag')!,
      );
      const third = await as('sim-alice-token');

      expect(first.headers.get('x-ratelimit-resource')).toBe('core');
      expect(numbers(first).limit).toBe(5000);
      expect(numbers(first).remaining + numbers(first).used).toBe(5000);
      expect(numbers(first).reset).toBeGreaterThan(Date.now() / 1000);
      expect(numbers(second).remaining).toBe(numbers(first).remaining - 1);
      expect(numbers(second).used).toBe(numbers(first).used + 1);
      // Another identity has its own budget.
      expect(numbers(bob).used).toBeLessThan(numbers(second).used);
      expect(notModified.status).toBe(304);
      expect(numbers(notModified).remaining).toBe(numbers(second).remaining);
      expect(numbers(third).remaining).toBe(numbers(second).remaining - 1);
    });
  });
}
