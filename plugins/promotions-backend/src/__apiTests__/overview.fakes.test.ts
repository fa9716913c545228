import { mockCredentials } from '@backstage/backend-test-utils';
import type { OverviewResponse, StuckResponse } from '@refplat/plugin-promotions-common';
import request from 'supertest';
import { productHiddenFrom } from '../__testUtils__/hiddenProductPolicy';
import { FakesBackend, startPromotionsBackendOnFakes } from '../__testUtils__/fakesBackend';
import { eventually } from '../__testUtils__/testBackend';

const asUser = (name: string) => mockCredentials.user.header(`user:default/${name}`);
const STAGES = ['dev', 'test', 'uat', 'staging', 'prod'];

/** bob may not read beta/payments; everyone else reads everything. */
const paymentsHiddenFromBob = productHiddenFrom('user:default/bob', 'beta/payments');

/**
 * The overview reads every Product on the platform: its tests name the two seeded ones and
 * count them, on the in-memory fakes through the composition root (issue 46), which no other
 * test adds a Product to.
 */
describe('the organisation overview and stuck list', () => {
  let world: FakesBackend;
  let server: FakesBackend['server'];

  beforeAll(async () => {
    // No Gate: a promotion stays awaiting approval.
    world = await startPromotionsBackendOnFakes({ gate: { enabled: false }, services: [paymentsHiddenFromBob] });
    server = world.server;
  });

  afterAll(async () => {
    await world?.stop();
  });

  const overview = async (user: string, query = ''): Promise<OverviewResponse> => {
    const response = await request(server).get(`/api/promotions/overview${query}`).set('Authorization', asUser(user));
    expect(response.status).toBe(200);
    return response.body;
  };
  const products = async (user: string, query = '') => (await overview(user, query)).rows.map(row => row.product);
  const stuck = async (user: string): Promise<StuckResponse> => {
    const response = await request(server).get('/api/promotions/stuck').set('Authorization', asUser(user));
    expect(response.status).toBe(200);
    return response.body;
  };

  it('answers a row per Product with a cell per stage, bottom first', async () => {
    const page = await overview('alice');
    expect(page.stages).toEqual(STAGES);
    expect(page.total).toBe(2);
    expect(page.nextCursor).toBeUndefined();
    expect(page.rows.map(row => [row.product, row.team, row.owners])).toEqual([
      ['alpha/shop', 'alpha', ['group:default/alpha']],
      ['beta/payments', 'beta', ['group:default/beta']],
    ]);
    for (const row of page.rows) {
      expect(row.cells.map(cell => cell.stage)).toEqual(STAGES);
      expect(row.cells[0].matchesBelow).toBe(true);
      for (const cell of row.cells) {
        expect(['healthy', 'progressing', 'stuck', 'unknown']).toContain(cell.verdict);
        expect(cell).toMatchObject({ holds: 0, openPromotions: 0, awaitingApproval: 0 });
      }
    }
  });

  it('shows a viewer only the Products they may read', async () => {
    expect(await products('bob')).toEqual(['alpha/shop']);
    expect((await overview('bob')).total).toBe(1);
    expect(await products('carol')).toEqual(['alpha/shop', 'beta/payments']);
    expect((await request(server).get('/api/promotions/overview')).status).toBe(401);
    expect((await request(server).get('/api/promotions/stuck')).status).toBe(401);
  });

  it('filters by team, owner and "mine"', async () => {
    expect(await products('alice', '?team=beta')).toEqual(['beta/payments']);
    expect(await products('alice', '?team=gamma')).toEqual([]);
    expect(await products('alice', '?owner=group:default/alpha')).toEqual(['alpha/shop']);
    expect(await products('alice', '?owner=beta')).toEqual(['beta/payments']);
    // bob is a member of alpha; alice and carol own no Product
    expect(await products('bob', '?filter=mine')).toEqual(['alpha/shop']);
    expect(await products('carol', '?filter=mine')).toEqual([]);
  });

  it('pages with an opaque cursor in Product order', async () => {
    const first = await overview('alice', '?limit=1');
    expect(first.rows.map(row => row.product)).toEqual(['alpha/shop']);
    expect(first.total).toBe(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await overview('alice', `?limit=1&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect(second.rows.map(row => row.product)).toEqual(['beta/payments']);
    expect(second.nextCursor).toBeUndefined();
  });

  it.each([
    ['?limit=0', /Invalid limit "0"/],
    ['?limit=201', /Invalid limit "201": use a whole number from 1 to 200/],
    ['?limit=many', /Invalid limit "many"/],
    ['?filter=broken', /request\/query\/filter must be equal to one of the allowed values: stuck, awaiting-approval, mine/],
    ['?cursor=garbage', /Invalid cursor "garbage"/],
    ['?team=..%2Fx', /Invalid team/],
    ['?team=a&team=b', /request\/query\/team must be string/],
  ])('answers 400 to %s', async (query, message) => {
    const response = await request(server).get(`/api/promotions/overview${query}`).set('Authorization', asUser('alice'));
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(message);
  });

  it('shows a promotion awaiting approval in its cell and under "awaiting approval"', async () => {
    const requested = await request(server)
      .post('/api/promotions/products/alpha/shop/promotions')
      .set('Authorization', asUser('bob'))
      .send({ toStage: 'prod' });
    expect(requested.status).toBe(201);
    expect(requested.body.promotion.status).toBe('awaiting-approval');
    try {
      const prod = await eventually(async () => {
        const page = await overview('alice', '?filter=awaiting-approval');
        return page.rows.length > 0 ? page.rows[0].cells.find(cell => cell.stage === 'prod') : undefined;
      });
      expect(prod).toMatchObject({ openPromotions: 1, awaitingApproval: 1 });
      expect(await products('alice', '?filter=awaiting-approval')).toEqual(['alpha/shop']);
    } finally {
      // The other tests count no open promotion, whichever order they run in.
      const withdrawn = await request(server)
        .post(`/api/promotions/promotions/${requested.body.promotion.id}/withdraw`)
        .set('Authorization', asUser('bob'))
        .send({ reason: 'the test is done' });
      expect(withdrawn.status).toBe(200);
    }
    expect(await products('alice', '?filter=awaiting-approval')).toEqual([]);
  });

  it('shows a stuck cell as stuck in the matrix and, with its diagnosis, in the stuck list', async () => {
    expect(await products('alice', '?filter=stuck')).toEqual([]);
    world.stageHealth({ team: 'beta', product: 'payments' }, 'test', 'Degraded');
    try {
      const test = await eventually(async () => {
        const page = await overview('alice', '?filter=stuck');
        return page.rows[0]?.cells.find(cell => cell.stage === 'test' && cell.verdict === 'stuck');
      }, 60_000);
      expect(test.verdict).toBe('stuck');
      expect(await products('alice', '?filter=stuck')).toEqual(['beta/payments']);

      const items = (await stuck('alice')).items.filter(item => item.product === 'beta/payments' && item.stage === 'test');
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) {
        expect(item).toMatchObject({
          team: 'beta',
          owners: ['group:default/beta'],
          diagnosis: { state: 'stuck', code: 'degraded' },
        });
        expect(item.summary).toContain(`${item.service} in test`);
        expect(item.stuckSince).toEqual(expect.any(String));
      }
      // bob may not read beta/payments: neither its row nor its stalls
      expect((await stuck('bob')).items.filter(item => item.product === 'beta/payments')).toEqual([]);
      expect(await products('bob', '?filter=stuck')).toEqual([]);
    } finally {
      world.resync();
    }
  });
});
