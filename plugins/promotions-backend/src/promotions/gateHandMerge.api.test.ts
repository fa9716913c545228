import { Octokit } from '@octokit/rest';
import { RunningSim, startPlatformSim } from '@refplat/platform-sim';
import { addManyProducts } from '../bench/manyProducts';
import { PlatformRepoWriter } from '../github/PlatformRepoWriter';
import { addedProduct, costServices } from '../__testUtils__/githubCost';

jest.setTimeout(120_000);

/**
 * A merge by hand on GitHub changes the target Release itself. A Gate check
 * that read the PR as open just before (a run's list of open PRs, or a push
 * webhook arriving before the pull_request one) then sees that change, and
 * must not take it for someone else's.
 */
describe('the Gate and a PR merged by hand during its check', () => {
  let sim: RunningSim;

  beforeAll(async () => {
    sim = await startPlatformSim({ reconcileIntervalMs: 3_600_000 });
    addManyProducts(sim.repoDir, 1);
  });

  afterAll(async () => {
    await sim?.stop();
  });

  it('ends the promotion as merged, not closed for a changed Release', async () => {
    const services = await costServices(sim);
    const promotion = await services.openWaitingRollback(addedProduct(0), 0);
    const writer = new PlatformRepoWriter(
      new Octokit({ baseUrl: sim.githubApiUrl, auth: sim.tokens.github }),
      services.config.platformRepo,
    );
    const listedBeforeMerge = new Map((await writer.listOpenPullRequests()).map(pr => [pr.number, pr]));
    expect(listedBeforeMerge.has(promotion.pullRequest.number!)).toBe(true);

    const alice = new Octokit({ baseUrl: sim.githubApiUrl, auth: 'sim-alice-token' });
    await alice.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', {
      owner: 'refplat',
      repo: 'platform',
      pull_number: promotion.pullRequest.number!,
    });
    await services.gate.check(promotion.id, listedBeforeMerge);

    const settled = await services.store.get(promotion.id);
    expect(settled).toMatchObject({ status: 'merged', statusReason: expect.stringMatching(/^Merged on GitHub/) });
  });
});
