import { mockCredentials } from '@backstage/backend-test-utils';
import { RunningSim, startPlatformSim } from '@refplat/platform-sim';
import request from 'supertest';
import { FAST_SIM_TIMINGS, startPromotionsBackend } from '../__testUtils__/testBackend';
import { Recorded, recordingAuditor } from '../__testUtils__/recordingAuditor';

jest.setTimeout(120_000);

type Server = Awaited<ReturnType<typeof startPromotionsBackend>>;

const as = (name: string) => mockCredentials.user.header(`user:default/${name}`);

describe("security-relevant actions go to Backstage's auditor", () => {
  let sim: RunningSim;
  let server: Server;
  let events: Recorded[];

  beforeEach(async () => {
    events = [];
    sim = await startPlatformSim(FAST_SIM_TIMINGS);
    server = await startPromotionsBackend(sim, 'argocd', { services: [recordingAuditor(events)] });
  });

  afterEach(async () => {
    await sim.stop();
  });

  const post = (path: string, user: string, body: object) =>
    request(server).post(`/api/promotions/${path}`).set('Authorization', as(user)).send(body);
  /** The settled events (succeeded or failed), each after its own `initiated`. */
  const settled = () => {
    const initiated = events.filter(e => e.status === 'initiated');
    const done = events.filter(e => e.status !== 'initiated');
    expect(initiated.map(e => e.eventId)).toEqual(done.map(e => e.eventId));
    return done;
  };

  it('records holds placed and lifted, and a refused hold as a failure with its error', async () => {
    const placed = await post('products/alpha/shop/holds', 'bob', { stage: 'uat', service: 'storefront', reason: 'load test' });
    expect(placed.status).toBe(201);
    const refused = await post('products/beta/payments/holds', 'bob', { stage: 'uat', service: 'ledger', reason: 'mine' });
    expect(refused.status).toBe(403);
    const lifted = await request(server)
      .delete('/api/promotions/products/alpha/shop/holds/uat/storefront')
      .set('Authorization', as('bob'));
    expect(lifted.status).toBe(200);

    expect(settled()).toEqual([
      {
        eventId: 'hold-place',
        severityLevel: 'medium',
        by: as('bob'),
        status: 'succeeded',
        meta: { product: 'alpha/shop', stage: 'uat', services: ['storefront'], reason: 'load test' },
      },
      {
        eventId: 'hold-place',
        severityLevel: 'medium',
        by: as('bob'),
        status: 'failed',
        meta: { product: 'beta/payments', stage: 'uat', services: ['ledger'], reason: 'mine' },
        error: 'NotAllowedError',
      },
      {
        eventId: 'hold-lift',
        severityLevel: 'medium',
        by: as('bob'),
        status: 'succeeded',
        meta: { product: 'alpha/shop', stage: 'uat', services: ['storefront'] },
      },
    ]);
  });

  it('records a request, a refused and an allowed approval, and a refused rollback; the own trail stays', async () => {
    const requested = await post('products/alpha/shop/promotions', 'bob', { toStage: 'prod' });
    expect(requested.status).toBe(201);
    const promotion = requested.body.promotion;
    expect((await post(`promotions/${promotion.id}/approve`, 'bob', {})).status).toBe(403);
    expect((await post(`promotions/${promotion.id}/approve`, 'alice', {})).status).toBe(200);
    const rollback = await post('products/beta/payments/rollbacks', 'bob', {
      stage: 'prod',
      services: { ledger: `sha256:${'1'.repeat(64)}` },
    });
    expect(rollback.status).toBe(403);

    const promotionMeta = {
      product: 'alpha/shop',
      stage: 'prod',
      services: promotion.services,
      promotionId: promotion.id,
    };
    expect(settled()).toEqual([
      {
        eventId: 'promotion-request',
        severityLevel: 'medium',
        by: as('bob'),
        status: 'succeeded',
        meta: { ...promotionMeta, existing: false },
      },
      {
        eventId: 'promotion-approve',
        severityLevel: 'high',
        by: as('bob'),
        status: 'failed',
        meta: promotionMeta,
        error: 'NotAllowedError',
      },
      {
        eventId: 'promotion-approve',
        severityLevel: 'high',
        by: as('alice'),
        status: 'succeeded',
        meta: promotionMeta,
      },
      {
        eventId: 'promotion-rollback',
        severityLevel: 'high',
        by: as('bob'),
        status: 'failed',
        meta: { product: 'beta/payments', stage: 'prod', services: { ledger: `sha256:${'1'.repeat(64)}` } },
        error: 'NotAllowedError',
      },
    ]);

    // The plugin's own trail is kept as well.
    const trail = await request(server).get(`/api/promotions/promotions/${promotion.id}`).set('Authorization', as('bob'));
    expect(trail.body.events.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(['requested', 'approved']),
    );
  });
});
