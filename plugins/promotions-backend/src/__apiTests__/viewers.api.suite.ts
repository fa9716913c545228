import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import { eventually } from '../__testUtils__/testBackend';
import { backendPerTest, sharedSim } from '../__testUtils__/sharedSimBackend';
import { getLadder } from '../__testUtils__/ladderViews';

const VIEWERS = 20;
/** Longer than 20 views take on a busy 2-core box, so they all fall within one TTL. */
const LONG_TTL = { seconds: 60 };

/** The two per-view reads not keyed by an immutable version. */
const isHeadCheck = (call: { path: string }) =>
  call.path === '/repos/refplat/platform/commits/heads/main';
const isApplicationList = (call: { path: string }) => call.path === '/api/v1/applications';

/** What many viewers of one ladder cost upstream, and what they see of the Gate's merges. */
export function viewersSuite(): void {
  describe('many viewers of one ladder', () => {
    // The file's simulator; each test starts a backend with its own TTL and stops it, so that only its calls are
    // counted (no other backend runs on the simulator meanwhile).
    const shared = sharedSim();
    const startBackend = backendPerTest();

    const headChecks = () => shared.sim.control.getRequests('github').filter(isHeadCheck);
    const applicationLists = () => shared.sim.control.getRequests('argocd').filter(isApplicationList);

    it(`costs at most 1 branch-head check and 1 ArgoCD list per TTL for ${VIEWERS} concurrent then ${VIEWERS} back-to-back viewers`, async () => {
      const server = await startBackend(shared.sim, 'argocd', { cacheTtl: LONG_TTL });
      shared.sim.control.clearRequests();

      const concurrent = await Promise.all(Array.from({ length: VIEWERS }, () => getLadder(server)));
      for (let viewer = 0; viewer < VIEWERS; viewer++) await getLadder(server);

      expect(headChecks()).toHaveLength(1);
      expect(applicationLists()).toHaveLength(1);
      // everyone saw the same platform: one head, one listing
      expect(new Set(concurrent.map(ladder => ladder.revision)).size).toBe(1);
    });

    it('asks again once the TTL has passed, and no more often', async () => {
      const ttlMs = 500;
      const server = await startBackend(shared.sim, 'argocd', { cacheTtl: { milliseconds: ttlMs } });
      shared.sim.control.clearRequests();
      const started = Date.now();
      await getLadder(server);
      await eventually(async () => {
        await getLadder(server);
        return headChecks().length >= 2 && applicationLists().length >= 2 ? true : undefined;
      });
      const windows = Math.floor((Date.now() - started) / ttlMs) + 1;
      expect(headChecks().length).toBeLessThanOrEqual(windows);
      expect(applicationLists().length).toBeLessThanOrEqual(windows);
    });

    it("shows the Gate's merge, and that it brought the digest, in the next view, however long the TTL", async () => {
      // Added before the backend starts: a view within the TTL would not see it yet.
      const shop = await shared.addProduct('alpha/shop');
      const server = await startBackend(shared.sim, 'argocd', { cacheTtl: LONG_TTL });
      const before = await getLadder(server, shop.ref);
      const requested = await request(server)
        .post(`/api/promotions/products/${shop.ref}/promotions`)
        .set('Authorization', mockCredentials.user.header('user:default/bob'))
        .send({ toStage: 'test', services: ['storefront'] });
      expect(requested.status).toBe(201);
      const digest = requested.body.promotion.services.storefront;
      expect(before.stages.find(stage => stage.name === 'test')!.services.storefront.digest).not.toBe(digest);

      await eventually(async () => {
        const { body } = await request(server)
          .get(`/api/promotions/promotions/${requested.body.promotion.id}`)
          .set('Authorization', mockCredentials.user.header('user:default/bob'));
        return body.promotion.status === 'merged' ? true : undefined;
      }, 20_000);
      const after = await getLadder(server, shop.ref);
      expect(after.revision).not.toBe(before.revision);
      const cell = after.stages.find(stage => stage.name === 'test')!.services.storefront;
      expect(cell.digest).toBe(digest);
      // and says how the digest got there
      expect(cell.arrivedWith).toMatchObject({
        promotionId: requested.body.promotion.id,
        kind: 'promotion',
        requestedBy: 'user:default/bob',
        pullRequest: requested.body.promotion.pullRequest,
      });
    });
  });
}
