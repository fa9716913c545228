import { execFileSync } from 'child_process';
import { mockCredentials } from '@backstage/backend-test-utils';
import type { RunningSim } from '@refplat/platform-sim';
import { Octokit } from '@octokit/rest';
import request from 'supertest';
import { startPromotionsBackend } from '../__testUtils__/testBackend';
import { sharedSimBackend, TestProduct } from '../__testUtils__/sharedSimBackend';

const bob = mockCredentials.user.header('user:default/bob');

/**
 * The changes between two stages (was changes.api.test.ts). Each test reads a
 * Product of its own, added like the seeded alpha/shop, and compares the
 * commits the plugin lists with what git itself says is in the range, so it
 * holds wherever it runs among the suites sharing the simulator.
 */
export function changesSuite() {
  describe('GET /products/{team}/{product}/changes', () => {
    // One simulator and backend; a test that records sources records them in a Product of its own.
    const shared = sharedSimBackend();
    let sim: RunningSim;
    let server: Awaited<ReturnType<typeof startPromotionsBackend>>;
    /** The Product read: one added like the seeded alpha/shop for each test. */
    let shop: TestProduct;

    beforeAll(() => {
      ({ sim, server } = shared);
    });

    beforeEach(async () => {
      shop = await shared.addProduct('alpha/shop');
    });

    const changes = (query: string) =>
      request(server).get(`/api/promotions/products/${shop.ref}/changes${query}`).set('Authorization', bob);

    it('says plainly when no source commit is recorded', async () => {
      const response = await changes('?from=dev&to=test');
      expect(response.status).toBe(200);
      const storefront = response.body.items.find((i: { service: string }) => i.service === 'storefront');
      expect(storefront).toMatchObject({ changed: true });
      expect(storefront.note).toMatch(/No source commit is recorded/);
      expect(response.body.items.find((i: { service: string }) => i.service === 'cart')).toMatchObject({
        changed: false,
      });
    });

    /** Commits of the platform repo's main, newest first (`git log [range]`). */
    const gitLog = (range = 'main') =>
      execFileSync('git', ['--git-dir', sim.repoDir, 'log', '--format=%H', range], { encoding: 'utf8' })
        .trim()
        .split('\n');

    /** As CI would: records in a stage's Release which commit storefront's digest was built from. */
    async function recordStorefrontSource(stage: string, revision: string) {
      const github = new Octokit({ baseUrl: sim.githubApiUrl, auth: sim.tokens.github });
      const path = shop.releasePath(stage);
      const { data } = await github.rest.repos.getContent({ owner: 'refplat', repo: 'platform', path });
      const file = data as { content: string; sha: string };
      const text = Buffer.from(file.content, 'base64').toString('utf8');
      const withSource = text.replace(
        /(\n {4}storefront:\n {6}digest: \S+)/,
        `$1\n      source:\n        repository: refplat/platform\n        revision: ${revision}`,
      );
      await github.rest.repos.createOrUpdateFileContents({
        owner: 'refplat',
        repo: 'platform',
        path,
        message: `ci: record the source of storefront in ${stage}`,
        sha: file.sha,
        content: Buffer.from(withSource).toString('base64'),
      });
    }

    const storefrontChange = async () =>
      (await changes('?from=dev&to=test')).body.items.find((i: { service: string }) => i.service === 'storefront');

    it('lists the commits between the source revisions CI recorded in the Releases', async () => {
      // The platform repo's own history stands in for a service's source repository.
      const log = gitLog();
      const [newer, older] = [log[0], log[3]];
      await recordStorefrontSource('dev', newer);
      await recordStorefrontSource('test', older);
      const storefront = await storefrontChange();
      expect(storefront.note).toBeUndefined();
      // What git says is in the range, newest first, whatever merges other suites made meanwhile.
      expect(storefront.commits.map((c: { sha: string }) => c.sha)).toEqual(gitLog(`${older}..${newer}`));
      expect(storefront.omittedCommits).toBeUndefined();
      expect(storefront.compareUrl).toMatch(new RegExp(`/refplat/platform/compare/${older}\\.\\.\\.${newer}$`));
    });

    /**
     * Pushes `count` commits onto a side branch of the platform repo, which
     * stands in for a service's source repository, in one `git fast-import`
     * (a commit per process would take minutes on a loaded machine).
     */
    function pushSourceCommits(parent: string, count: number) {
      const branch = 'refs/heads/storefront-source';
      const stream = Array.from({ length: count }, (_, i) => {
        const message = `storefront build ${i + 1}\n`;
        const content = `${i + 1}\n`;
        return [
          `commit ${branch}`,
          `committer CI <ci@example.com> ${1_700_000_000 + i} +0000`,
          `data ${Buffer.byteLength(message)}`,
          message,
          ...(i === 0 ? [`from ${parent}`] : []),
          'M 100644 inline storefront/build.txt',
          `data ${Buffer.byteLength(content)}`,
          content,
        ].join('\n');
      }).join('\n');
      execFileSync('git', ['--git-dir', sim.repoDir, 'fast-import', '--quiet'], { input: stream });
      return gitLog(`${parent}..${branch}`);
    }

    it('shows the newest 50 of a longer range, newest first, and how many more there are', async () => {
      const older = gitLog()[0];
      // One more than a page: the newest 50 are the last 49 of page 1 and the one on page 2.
      const range = pushSourceCommits(older, 101);
      expect(range).toHaveLength(101);
      await recordStorefrontSource('dev', range[0]);
      await recordStorefrontSource('test', older);
      sim.control.clearRequests();

      const storefront = await storefrontChange();
      expect(storefront.commits.map((c: { sha: string }) => c.sha)).toEqual(range.slice(0, 50));
      expect(storefront.commits.map((c: { message: string }) => c.message).slice(0, 2)).toEqual([
        'storefront build 101',
        'storefront build 100',
      ]);
      expect(storefront.omittedCommits).toBe(51);
      expect(storefront.compareUrl).toMatch(new RegExp(`/compare/${older}\\.\\.\\.${range[0]}$`));
      expect(storefront.note).toBe("The newest 50 of 101 commits are listed; GitHub's comparison shows all 101");
      // GitHub lists a comparison oldest first, 100 a page: page 1 says how many, page 2 holds the newest.
      // This range's only: a backend sharing the simulator may compare other ranges meanwhile.
      const compares = sim.control.getRequests('github').filter(r => r.path.includes(`/compare/${older}...`));
      expect(compares.map(r => new URLSearchParams(r.query).get('page'))).toEqual(['1', '2']);
    });

    it('answers 400 without two stages', async () => {
      expect((await changes('?from=dev')).status).toBe(400);
      expect((await changes('?from=dev&to=qa')).status).toBe(400);
    });
  });
}
