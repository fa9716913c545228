import { mockCredentials } from '@backstage/backend-test-utils';
import { RunningSim, startPlatformSim } from '@refplat/platform-sim';
import request from 'supertest';
import { eventually, startPromotionsBackend } from '../__testUtils__/testBackend';
import { getLadder } from '../__testUtils__/ladderViews';

jest.setTimeout(120_000);

const VIEWERS = 20;
/** Longer than 20 views take on a busy 2-core box, so they all fall within one TTL. */
const LONG_TTL = { seconds: 60 };

/** The two per-view reads not keyed by an immutable version. */
const isHeadCheck = (call: { path: string }) =>
  call.path === '/repos/refplat/platform/git/ref/heads/main';
const isApplicationList = (call: { path: string }) => call.path === '/api/v1/applications';

describe('many viewers of one ladder', () => {
  let sim: RunningSim;

  beforeEach(async () => {
    sim = await startPlatformSim();
  });

  afterEach(async () => {
    await sim?.stop();
  });

  const headChecks = () => sim.control.getRequests('github').filter(isHeadCheck);
  const applicationLists = () => sim.control.getRequests('argocd').filter(isApplicationList);

  it(`costs at most 1 branch-head check and 1 ArgoCD list per TTL for ${VIEWERS} concurrent then ${VIEWERS} back-to-back viewers`, async () => {
    const server = await startPromotionsBackend(sim, 'argocd', { cacheTtl: LONG_TTL });
    sim.control.clearRequests();

    const concurrent = await Promise.all(Array.from({ length: VIEWERS }, () => getLadder(server)));
    for (let viewer = 0; viewer < VIEWERS; viewer++) await getLadder(server);

    expect(headChecks()).toHaveLength(1);
    expect(applicationLists()).toHaveLength(1);
    // everyone saw the same platform: one head, one listing
    expect(new Set(concurrent.map(ladder => ladder.revision)).size).toBe(1);
  });

  it('asks again once the TTL has passed, and no more often', async () => {
    const ttlMs = 500;
    const server = await startPromotionsBackend(sim, 'argocd', {
      cacheTtl: { milliseconds: ttlMs },
    });
    sim.control.clearRequests();
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
    const server = await startPromotionsBackend(sim, 'argocd', { cacheTtl: LONG_TTL });
    const before = await getLadder(server);
    const requested = await request(server)
      .post('/api/promotions/products/alpha/shop/promotions')
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
    const after = await getLadder(server);
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
