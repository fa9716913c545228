import { mockCredentials } from '@backstage/backend-test-utils';
import { RunningSim, startPlatformSim } from '@refplat/platform-sim';
import request from 'supertest';
import { githubWrites, sharedSimBackend } from '../__testUtils__/sharedSimBackend';
import { FAST_SIM_TIMINGS, startPromotionsBackend } from '../__testUtils__/testBackend';

jest.setTimeout(120_000);

type Server = Awaited<ReturnType<typeof startPromotionsBackend>>;

const as = (name: string) => mockCredentials.user.header(`user:default/${name}`);
const A_DIGEST = `sha256:${'1'.repeat(64)}`;

/** The newest earlier digest of a service in a stage's history, and the current one. */
async function earlierDigest(server: Server, path: string, stage: string, service: string) {
  const history = await request(server)
    .get(`/api/promotions/products/${path}/stages/${stage}/history`)
    .set('Authorization', as('bob'));
  const current = history.body.items[0].services[service];
  const earlier = history.body.items.find(
    (entry: { services: Record<string, string> }) =>
      entry.services[service] && entry.services[service] !== current,
  );
  return { current, earlier: earlier.services[service] as string };
}

describe('who may change a Product', () => {
  // One simulator and backend: refusals write nothing, holds are lifted, and the rollback rolls back a Product of its own.
  const shared = sharedSimBackend({ sim: FAST_SIM_TIMINGS });
  let sim: RunningSim;
  let server: Server;

  beforeAll(() => {
    ({ sim, server } = shared);
  });

  const post = (path: string, user: string, body: object) =>
    request(server).post(`/api/promotions/products/${path}`).set('Authorization', as(user)).send(body);
  const lift = (path: string, user: string) =>
    request(server).delete(`/api/promotions/products/${path}`).set('Authorization', as(user));
  const liveHolds = async (product: string) =>
    (await request(server).get(`/api/promotions/products/${product}/holds`).set('Authorization', as('bob')))
      .body.items;

  it('answers 403 to a non-owner (bob on beta/payments) for a request, a hold and a rollback, and writes nothing', async () => {
    sim.control.clearRequests();
    const attempts = [
      await post('beta/payments/promotions', 'bob', { toStage: 'test' }),
      await post('beta/payments/holds', 'bob', { stage: 'prod', service: 'ledger', reason: 'mine now' }),
      await post('beta/payments/rollbacks', 'bob', { stage: 'prod', services: { ledger: A_DIGEST } }),
    ];
    for (const response of attempts) {
      expect(response.status).toBe(403);
      expect(response.body.error.message).toMatch(
        /user:default\/bob may not change beta\/payments: only the Product's owners \(group:default\/beta\) and release-approvers \(group:default\/release-approvers\)/,
      );
    }
    expect(githubWrites(sim)).toEqual([]);
    expect(await liveHolds('beta/payments')).toEqual([]);
  });

  it('lets owners change their Product and release-approvers any Product', async () => {
    const byOwner = await post('alpha/shop/holds', 'bob', { stage: 'uat', service: 'storefront', reason: 'load test' });
    expect(byOwner.status).toBe(201);
    const byApprover = await post('beta/payments/holds', 'alice', { stage: 'staging', service: 'ledger', reason: 'audit' });
    expect(byApprover.status).toBe(201);
    expect((await lift('alpha/shop/holds/uat/storefront', 'bob')).status).toBe(200);
    expect((await lift('beta/payments/holds/staging/ledger', 'alice')).status).toBe(200);
    expect(await liveHolds('alpha/shop')).toEqual([]);
  });

  it("keeps a rollback's hold at prod for release-approvers to lift", async () => {
    const { ref: shop } = await shared.addProduct('alpha/shop');
    const { earlier } = await earlierDigest(server, shop, 'prod', 'storefront');
    const rollback = await post(`${shop}/rollbacks`, 'alice', { stage: 'prod', services: { storefront: earlier } });
    expect(rollback.status).toBe(201);
    expect(await liveHolds(shop)).toEqual([
      expect.objectContaining({ stage: 'prod', service: 'storefront', placedBy: 'user:default/alice' }),
    ]);

    // bob owns shop, yet a prod hold is not his to lift
    const byOwner = await lift(`${shop}/holds/prod/storefront`, 'bob');
    expect(byOwner.status).toBe(403);
    expect(byOwner.body.error.message).toMatch(/lifting a hold at an approval stage needs a release-approver/);
    expect(await liveHolds(shop)).toHaveLength(1);

    const byApprover = await lift(`${shop}/holds/prod/storefront`, 'carol');
    expect(byApprover.status).toBe(200);
    expect(await liveHolds(shop)).toEqual([]);
  });
});

describe('promotions.permissions.requireOwnership: false', () => {
  let sim: RunningSim;

  beforeEach(async () => {
    sim = await startPlatformSim();
  });

  afterEach(async () => {
    await sim.stop();
  });

  it('leaves requests and holds to the permission policy, but not lifting a hold at prod', async () => {
    const server = await startPromotionsBackend(sim, 'argocd', { permissions: { requireOwnership: false } });
    const hold = (path: string, user: string, body: object) =>
      request(server).post(`/api/promotions/products/${path}`).set('Authorization', as(user)).send(body);

    expect((await hold('beta/payments/holds', 'bob', { stage: 'uat', service: 'ledger', reason: 'x' })).status).toBe(201);
    expect((await hold('beta/payments/holds', 'alice', { stage: 'prod', service: 'ledger', reason: 'x' })).status).toBe(201);
    const lift = await request(server)
      .delete('/api/promotions/products/beta/payments/holds/prod/ledger')
      .set('Authorization', as('bob'));
    expect(lift.status).toBe(403);
  });
});
