import { Octokit } from '@octokit/rest';
import type { RunningSim } from '@refplat/platform-sim';
import { addManyProducts } from '../bench/manyProducts';
import { addedProduct, costServices, measure } from '../__testUtils__/githubCost';
import { sharedSim } from '../__testUtils__/sharedSimBackend';
import { PlatformRepoWriter } from '../github/PlatformRepoWriter';

const PRODUCTS = 200;
const OPEN_PROMOTIONS = 20;
/** The added Product whose PR is merged by hand during a Gate check (the Gate test promotes the first 20). */
const HAND_MERGED = PRODUCTS - 1;
/** GitHub alone: Argo CD's reconcile loop hourly (PlatformRepoReader's suite asks for the same). */
const GITHUB_ONLY_SIM = { reconcileIntervalMs: 3_600_000 };

/**
 * GitHub's budget at scale (issue 13): exact request counts of a scan of
 * every Product and of the Gate, counted in the simulator. On the file's
 * GitHub-only simulator, which PlatformRepoReader's suite shares: it adds
 * the same 200 Products (addManyProducts names them alike) and no others,
 * and no backend runs on it, so each step measured counts only its own
 * requests.
 */
export function githubCostSuite() {
  describe(`GitHub cost over the default Products plus ${PRODUCTS}`, () => {
    const shared = sharedSim(GITHUB_ONLY_SIM);
    let sim: RunningSim;
    let services: Awaited<ReturnType<typeof costServices>>;

    /** The first two scans of the services, measured before any test runs: cold, then with nothing changed. */
    let cold: Awaited<ReturnType<typeof measureScan>>;
    let unchanged: Awaited<ReturnType<typeof measureScan>>;
    const measureScan = () => measure(sim, () => services.autoPromoter.run());

    beforeAll(async () => {
      sim = shared.sim;
      addManyProducts(sim.repoDir, PRODUCTS);
      services = await costServices(sim);
      cold = await measureScan();
      unchanged = await measureScan();
    });

    it('scans cold with at most 5 GitHub requests (head, tree, tarball and its download), then unchanged with 1 answered 304', async () => {
      expect(cold.result.products).toBe(PRODUCTS + 2);
      expect(cold.result.decisions.length).toBeGreaterThan(0);
      expect(cold.cost.github).toBeLessThanOrEqual(5);
      expect(cold.cost.calls.map(call => call.split(' ').slice(0, 2).join(' '))).toEqual([
        '200 GET',
        '200 GET',
        '302 GET',
        '200 GET',
      ]);
      expect(cold.cost.calls[2]).toMatch(/\/tarball\//);

      expect(unchanged.result.products).toBe(PRODUCTS + 2);
      expect(unchanged.cost.calls).toEqual(['304 GET /repos/refplat/platform/commits/heads/main']);
    });

    it(`runs the Gate over ${OPEN_PROMOTIONS} open promotions, nothing changing, for at most 1 charged GitHub request a run, and still reads a PR that left the open list`, async () => {
      const opened = [];
      for (let n = 0; n < OPEN_PROMOTIONS; n++) opened.push(await services.openWaitingRollback(addedProduct(n), n));
      expect(new Set(opened.map(p => p.pullRequest.number)).size).toBe(OPEN_PROMOTIONS);
      const { gate } = services;
      // The first run publishes each PR's health once: that is a change.
      await gate.checkAll();

      for (let run = 0; run < 3; run++) {
        const { cost } = await measure(sim, () => gate.checkAll());
        expect(cost.charged).toBeLessThanOrEqual(1);
        // one list of the open PRs (a page of 100) instead of one GET per promotion
        expect(sim.control.getRequests('github').filter(call => /\/pulls\/\d+$/.test(call.path))).toEqual([]);
        expect(sim.control.getRequests('github').filter(call => call.path === '/repos/refplat/platform/pulls')).toHaveLength(1);
      }
      const live = await services.store.listLive();
      expect(live.map(p => p.status)).toEqual(Array(OPEN_PROMOTIONS).fill('awaiting-approval'));
      expect(live.every(p => p.healthState?.state === 'success')).toBe(true);

      // Still read on its own once it left the open list (closed on GitHub), and settled.
      const [first] = live;
      const number = first.pullRequest.number!;
      const octokit = new Octokit({ baseUrl: sim.githubApiUrl, auth: sim.tokens.github });
      await octokit.rest.pulls.update({ owner: 'refplat', repo: 'platform', pull_number: number, state: 'closed' });

      const { cost } = await measure(sim, () => services.gate.checkAll());
      const closed = await services.store.get(first.id);
      expect(closed!.status).toBe('closed');
      expect(closed!.statusReason).toBe('Pull request closed on GitHub');
      expect(sim.control.getRequests('github').filter(call => call.path === `/repos/refplat/platform/pulls/${number}`)).toHaveLength(1);
      // the list changed (200) and the closed PR was read: 2 charged
      expect(cost.charged).toBe(2);
    });

    /**
     * A merge by hand on GitHub changes the target Release itself. A Gate check
     * that read the PR as open just before (a run's list of open PRs, or a push
     * webhook arriving before the pull_request one) then sees that change, and
     * must not take it for someone else's.
     */
    describe('the Gate and a PR merged by hand during its check', () => {
      it('ends the promotion as merged, not closed for a changed Release', async () => {
        // Services of its own (their own database and cache), on a Product no test above promotes.
        const own = await costServices(sim);
        const promotion = await own.openWaitingRollback(addedProduct(HAND_MERGED), HAND_MERGED);
        const writer = new PlatformRepoWriter(
          new Octokit({ baseUrl: sim.githubApiUrl, auth: sim.tokens.github }),
          own.config.platformRepo,
        );
        const listedBeforeMerge = new Map((await writer.listOpenPullRequests()).map(pr => [pr.number, pr]));
        expect(listedBeforeMerge.has(promotion.pullRequest.number!)).toBe(true);

        const alice = new Octokit({ baseUrl: sim.githubApiUrl, auth: 'sim-alice-token' });
        await alice.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', {
          owner: 'refplat',
          repo: 'platform',
          pull_number: promotion.pullRequest.number!,
        });
        await own.gate.check(promotion.id, listedBeforeMerge);

        const settled = await own.store.get(promotion.id);
        expect(settled).toMatchObject({ status: 'merged', statusReason: expect.stringMatching(/^Merged on GitHub/) });
      });
    });
  });
}
