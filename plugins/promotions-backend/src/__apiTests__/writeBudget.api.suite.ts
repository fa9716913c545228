import { mockCredentials } from '@backstage/backend-test-utils';
import { RunningSim, startPlatformSim } from '@refplat/platform-sim';
import { Octokit } from '@octokit/rest';
import request from 'supertest';
import { backendPerTest, githubWrites, testProduct } from '../__testUtils__/sharedSimBackend';
import { FAST_SIM_TIMINGS, eventually } from '../__testUtils__/testBackend';

const bob = mockCredentials.user.header('user:default/bob');
/** Fewer writes a minute than one promotion makes, so that it must wait for the budget. */
const LIMITS = { perMinute: 4, perHour: 500 };
const MINUTE_MS = 60_000;

/**
 * GitHub's secondary limit on writes, against a simulator that enforces it
 * (issue 26): the backend's writes wait for its budget instead of being
 * refused. Its own simulator: the file's others do not enforce the limit. Its
 * platform repo deletes merged branches itself, which saves the Gate that write.
 */
export function writeBudgetSuite() {
  describe('the write budget against a GitHub that enforces its secondary limit', () => {
    const startBackend = backendPerTest();
    let sim: RunningSim;

    beforeAll(async () => {
      sim = await startPlatformSim({ ...FAST_SIM_TIMINGS, writeLimits: LIMITS, deleteBranchOnMerge: true });
    });

    afterAll(async () => {
      await sim?.stop();
    });

    it('carries a promotion through more writes than a minute allows, none of them refused, and leaves its branch to GitHub', async () => {
      const server = await startBackend(sim, 'argocd', {
        promotions: {
          platformRepo: { host: new URL(sim.url).host, owner: 'refplat', repo: 'platform', writeBudget: LIMITS },
        },
      });
      const shop = testProduct('alpha', 'shop');
      await sim.control.ciPush({ team: shop.team, product: shop.product, service: 'storefront' });
      // Requested once dev runs the new digest healthy (a request before that is refused).
      const created = await eventually(async () => {
        const response = await request(server)
          .post(`/api/promotions/products/${shop.ref}/promotions`)
          .set('Authorization', bob)
          .send({ toStage: 'test', services: ['storefront'] });
        return response.status === 201 ? response : undefined;
      }, 60_000);
      const id = created.body.promotion.id;
      const merged = await eventually(async () => {
        const { body } = await request(server).get(`/api/promotions/promotions/${id}`).set('Authorization', bob);
        return body.promotion.status === 'merged' ? body.promotion : undefined;
      }, 240_000);
      expect(merged.pullRequest.number).toEqual(expect.any(Number));

      const writes = githubWrites(sim);
      expect(writes.length).toBeGreaterThan(LIMITS.perMinute);
      expect(writes.filter(call => call.status === 403)).toEqual([]);
      expect(writes.filter(call => call.method === 'DELETE')).toEqual([]);
      const github = new Octokit({ baseUrl: sim.githubApiUrl, auth: sim.tokens.github });
      const branches = await github.rest.git.listMatchingRefs({ owner: 'refplat', repo: 'platform', ref: `heads/${shop.branchPrefix}` });
      expect(branches.data).toEqual([]);
      const times = writes.map(call => Date.parse(call.at));
      for (const at of times) {
        expect(times.filter(other => other > at - MINUTE_MS && other <= at).length).toBeLessThanOrEqual(LIMITS.perMinute);
      }
    });
  });
}
