import { mockCredentials } from '@backstage/backend-test-utils';
import type { Ladder, Promotion } from '@refplat/plugin-promotions-common';
import request from 'supertest';
import { startPromotionsBackendOnFakes } from '../__testUtils__/fakesBackend';
import { eventually } from '../__testUtils__/testBackend';

/**
 * The API on the in-memory fakes (issue 46): the whole plugin, composed as a backend composes
 * it, with the platform repo and ArgoCD in the composition root's slots. What the plugin
 * decides (who may, what merges when, what a refusal leaves behind) is tested here in
 * seconds; GitHub's and ArgoCD's protocols stay with the simulator and the reference platform.
 */
const SHOP = { team: 'alpha', product: 'shop' };
const as = (name: string) => mockCredentials.user.header(`user:default/${name}`);

describe('a promotion journey on the fakes', () => {
  let world: Awaited<ReturnType<typeof startPromotionsBackendOnFakes>>;

  beforeAll(async () => {
    world = await startPromotionsBackendOnFakes({ gate: { frequency: { milliseconds: 200 } } });
  });

  afterAll(async () => {
    await world?.stop();
  });

  const ladder = async (): Promise<Ladder> => {
    const response = await request(world.server).get('/api/promotions/products/alpha/shop/ladder').set('Authorization', as('bob'));
    expect(response.status).toBe(200);
    return response.body;
  };
  const promotionOf = async (id: string): Promise<Promotion> =>
    (await request(world.server).get(`/api/promotions/promotions/${id}`).set('Authorization', as('bob'))).body.promotion;
  const until = (id: string, status: Promotion['status']) =>
    eventually(async () => ((await promotionOf(id)).status === status ? true : undefined), 15_000);

  it('reads the ladder from the Release records, every stage healthy as ArgoCD runs it', async () => {
    const read = await ladder();
    expect(read.stages.map(stage => stage.name)).toEqual(['dev', 'test', 'uat', 'staging', 'prod']);
    for (const stage of read.stages) {
      const digests = Object.fromEntries(Object.entries(stage.services).filter(([, cell]) => cell.digest).map(([service, cell]) => [service, cell.digest]));
      expect({ stage: stage.name, digests }).toEqual({ stage: stage.name, digests: world.released(SHOP, stage.name) });
      expect(stage.healthy).toBe(true);
    }
  });

  it('refuses bob on beta/payments with 403, and writes nothing', async () => {
    const mark = world.repo.calls.length;
    const response = await request(world.server)
      .post('/api/promotions/products/beta/payments/promotions')
      .set('Authorization', as('bob'))
      .send({ toStage: 'test' });
    expect(response.status).toBe(403);
    expect(world.writesSince(mark)).toEqual([]);
  });

  it('promotes storefront dev → test in a PR changing only its Release, merged once dev runs it healthy', async () => {
    const devDigest = world.released(SHOP, 'dev').storefront;
    const response = await request(world.server)
      .post('/api/promotions/products/alpha/shop/promotions')
      .set('Authorization', as('bob'))
      .send({ toStage: 'test', services: ['storefront'] });
    expect(response.status).toBe(201);
    const promotion: Promotion = response.body.promotion;
    expect(promotion).toMatchObject({ fromStage: 'dev', toStage: 'test', services: { storefront: devDigest } });

    await until(promotion.id, 'merged');
    expect(world.released(SHOP, 'test').storefront).toBe(devDigest);
    const [pr] = world.repo.pullRequests().filter(p => p.number === promotion.pullRequest.number);
    expect(pr).toMatchObject({ merged: true });
    expect((await world.repo.changedFiles(pr.headSha)).map(file => file.filename)).toEqual(['gitops/releases/alpha/shop/test.yaml']);
    const events = (await request(world.server).get(`/api/promotions/promotions/${promotion.id}`).set('Authorization', as('bob'))).body.events;
    expect(events.map((event: { type: string }) => event.type)).toEqual(expect.arrayContaining(['requested', 'pr-opened', 'checks-passed', 'merged']));
  });

  it('refuses storefront out of a dev whose canary aborted with 409, naming it, and writes nothing', async () => {
    world.stageHealth(SHOP, 'dev', 'Degraded', ['storefront']);
    try {
      const mark = world.repo.calls.length;
      const response = await request(world.server)
        .post('/api/promotions/products/alpha/shop/promotions')
        .set('Authorization', as('bob'))
        .send({ toStage: 'test', services: ['storefront'] });
      expect({ status: response.status, message: response.body.error?.message }).toEqual({ status: 409, message: expect.stringMatching(/storefront/) });
      expect(world.writesSince(mark)).toEqual([]);
    } finally {
      world.resync();
    }
  });

  it('waits for a release-approver at prod: bob may not approve, alice does, and it merges', async () => {
    const response = await request(world.server)
      .post('/api/promotions/products/alpha/shop/promotions')
      .set('Authorization', as('bob'))
      .send({ toStage: 'prod', services: ['storefront'] });
    expect(response.status).toBe(201);
    const promotion: Promotion = response.body.promotion;
    expect(promotion.status).toBe('awaiting-approval');

    const byBob = await request(world.server).post(`/api/promotions/promotions/${promotion.id}/approve`).set('Authorization', as('bob'));
    expect(byBob.status).toBe(403);
    await eventually(async () => {
      const approved = await request(world.server).post(`/api/promotions/promotions/${promotion.id}/approve`).set('Authorization', as('alice'));
      return approved.status === 200 ? true : undefined;
    }, 15_000);
    await until(promotion.id, 'merged');
    expect(world.released(SHOP, 'prod').storefront).toBe(promotion.services.storefront);
  });
});
