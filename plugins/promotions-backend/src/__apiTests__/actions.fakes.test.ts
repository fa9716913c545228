import { actionsRegistryServiceFactory } from '@backstage/backend-defaults/alpha';
import request from 'supertest';
import { asUser, invokeAction } from '../__testUtils__/actionsOverHttp';
import { FakesBackend, startPromotionsBackendOnFakes } from '../__testUtils__/fakesBackend';

type Server = FakesBackend['server'];

/** What a refusal looks like to the caller: its HTTP status and message. */
const refusal = (response: request.Response) => ({ status: response.status, message: response.body.error?.message });

/**
 * The actions against the routes, on the in-memory fakes through the composition root (issue
 * 46): what they read and change is a Product of the suite's own (like alpha/shop); the
 * refusals on beta/payments change nothing.
 */
describe('the promotion actions (served by the actions registry, as MCP tools are)', () => {
  let world: FakesBackend;
  let server: Server;
  /** The suite's own Product, laid out as alpha/shop. */
  let shop: { product: string; ref: string };

  beforeAll(async () => {
    world = await startPromotionsBackendOnFakes({
      // No Gate: nothing merges on its own, so each promotion stays in the state a test put it in.
      gate: { enabled: false },
      // The real registry: it serves /.backstage/actions over HTTP, which the actions service calls.
      services: [actionsRegistryServiceFactory],
    });
    server = world.server;
    shop = world.addProduct('alpha/shop');
  });

  afterAll(async () => {
    await world?.stop();
  });

  const invoke = (action: string, user: string, input: object) => invokeAction(server, action, user, input);
  const route = (method: 'post' | 'delete', path: string, user: string, body: object = {}) =>
    request(server)[method](`/api/promotions/${path}`).set('Authorization', asUser(user)).send(body);

  it('lists every action with truthful attributes and schemas', async () => {
    const response = await request(server)
      .get('/api/promotions/.backstage/actions/v1/actions')
      .set('Authorization', asUser('bob'));
    expect(response.status).toBe(200);
    const actions = Object.fromEntries(
      response.body.actions.map((action: { name: string; attributes: object }) => [action.name, action]),
    );
    expect(Object.keys(actions).sort()).toEqual([
      'approve-promotion',
      'explain',
      'get-ladder',
      'hold',
      'list-awaiting-approval',
      'request-promotion',
      'resume',
      'what-changed',
      'withdraw-promotion',
    ]);
    for (const name of ['get-ladder', 'explain', 'what-changed', 'list-awaiting-approval']) {
      expect(actions[name].attributes).toEqual({ readOnly: true, idempotent: true, destructive: false });
    }
    expect(actions['request-promotion'].attributes).toEqual({ readOnly: false, idempotent: true, destructive: true });
    expect(actions.resume.attributes).toEqual({ readOnly: false, idempotent: false, destructive: false });
    expect(actions['withdraw-promotion'].attributes).toEqual({ readOnly: false, idempotent: false, destructive: true });
    expect(actions['withdraw-promotion'].schema.input.required).toEqual(['id', 'reason']);
    expect(actions.explain.schema.input.required).toEqual(['product', 'stage']);
    expect(actions.explain.id).toBe('promotions:explain');
  });

  it('reads the ladder, explains a stage and says what changed, as the routes do', async () => {
    const ladder = await invoke('get-ladder', 'bob', { product: shop.ref });
    expect(ladder.status).toBe(200);
    expect(ladder.body.output.stages.map((s: { stage: string }) => s.stage)).toEqual([
      'dev',
      'test',
      'uat',
      'staging',
      'prod',
    ]);
    const test = ladder.body.output.stages[1];
    expect(test.services.find((s: { service: string }) => s.service === 'storefront')).toMatchObject({
      waitingToClimb: true,
      digest: expect.stringMatching(/^sha256:/),
    });

    const explained = await invoke('explain', 'bob', { product: shop.ref, stage: 'test', service: 'storefront' });
    expect(explained.status).toBe(200);
    const [cell] = explained.body.output.services;
    expect(cell.diagnosis).toMatchObject({ lastCompletedStep: expect.any(String), likelyCause: expect.any(String) });
    expect(cell.checklist.length).toBeGreaterThan(0);
    expect(explained.body.output.text).toContain('storefront in test:');
    expect(explained.body.output.text).toContain(`Likely cause: ${cell.diagnosis.likelyCause}`);

    const changes = await invoke('what-changed', 'bob', { product: shop.ref, from: 'dev', to: 'test' });
    const viaRoute = await request(server)
      .get(`/api/promotions/products/${shop.ref}/changes?from=dev&to=test`)
      .set('Authorization', asUser('bob'));
    expect(changes.status).toBe(200);
    expect(changes.body.output).toEqual(viaRoute.body);
    expect(changes.body.output.items.find((i: { service: string }) => i.service === 'storefront').changed).toBe(true);

    const backwards = await invoke('what-changed', 'bob', { product: shop.ref, from: 'test', to: 'dev' });
    const backwardsRoute = await request(server)
      .get(`/api/promotions/products/${shop.ref}/changes?from=test&to=dev`)
      .set('Authorization', asUser('bob'));
    expect(refusal(backwards)).toEqual(refusal(backwardsRoute));
    expect(backwards.status).toBe(400);

    expect((await invoke('explain', 'bob', { product: 'alpha', stage: 'test' })).status).toBe(400);
    expect((await invoke('explain', 'bob', { product: shop.ref, stage: 'qa' })).status).toBe(400);
  });

  it('refuses bob on a Product he does not own with the same 403 as the routes', async () => {
    const requested = await invoke('request-promotion', 'bob', { product: 'beta/payments', toStage: 'test' });
    expect(refusal(requested)).toEqual(refusal(await route('post', 'products/beta/payments/promotions', 'bob', { toStage: 'test' })));
    expect(requested.status).toBe(403);
    expect(requested.body.error.message).toMatch(/user:default\/bob may not change beta\/payments/);

    const hold = { stage: 'test', service: 'ledger', reason: 'mine now' };
    const held = await invoke('hold', 'bob', { product: 'beta/payments', ...hold });
    expect(refusal(held)).toEqual(refusal(await route('post', 'products/beta/payments/holds', 'bob', hold)));
    expect(held.status).toBe(403);
  });

  it('refuses a promotion with nothing to promote with the same 409 as the route', async () => {
    // beta/payments is identical on every stage.
    const action = await invoke('request-promotion', 'alice', { product: 'beta/payments', toStage: 'test' });
    const viaRoute = await route('post', 'products/beta/payments/promotions', 'alice', { toStage: 'test' });
    expect(action.status).toBe(409);
    expect(refusal(action)).toEqual(refusal(viaRoute));
  });

  it("refuses the requester's own approval with the same 409 as the route", async () => {
    const requested = await invoke('request-promotion', 'alice', { product: shop.ref, toStage: 'prod', services: ['cart'] });
    const { promotion } = requested.body.output;
    expect(promotion.requestedBy).toBe('user:default/alice');
    const own = await invoke('approve-promotion', 'alice', { id: promotion.id });
    expect(own.status).toBe(409);
    expect(refusal(own)).toEqual(refusal(await route('post', `promotions/${promotion.id}/approve`, 'alice')));
    expect(own.body.error.message).toMatch(/may not approve it/);

    // Rejected, it awaits nothing: approving it is refused as over HTTP.
    expect((await route('post', `promotions/${promotion.id}/reject`, 'carol', { reason: 'not now' })).status).toBe(200);
    const closed = await invoke('approve-promotion', 'carol', { id: promotion.id });
    expect(closed.status).toBe(409);
    expect(refusal(closed)).toEqual(refusal(await route('post', `promotions/${promotion.id}/approve`, 'carol')));
    expect(closed.body.error.message).toMatch(/Nothing to approve/);
  });

  it('requests prod as bob (idempotently), lists it for alice only, and follows the approval rules', async () => {
    const requested = await invoke('request-promotion', 'bob', { product: shop.ref, toStage: 'prod' });
    expect(requested.status).toBe(200);
    const { promotion } = requested.body.output;
    expect(requested.body.output.existing).toBe(false);
    expect(promotion).toMatchObject({ status: 'awaiting-approval', requestedBy: 'user:default/bob', toStage: 'prod' });
    const again = await invoke('request-promotion', 'bob', { product: shop.ref, toStage: 'prod' });
    expect(again.body.output).toMatchObject({ existing: true, promotion: { id: promotion.id } });

    const ids = async (user: string) =>
      (await invoke('list-awaiting-approval', user, {})).body.output.items.map((p: { id: string }) => p.id);
    expect(await ids('alice')).toEqual([promotion.id]);
    expect(await ids('bob')).toEqual([]);
    // What it waits for and how the stage below stands, per Service, as GET /approvals says
    const [listed] = (await invoke('list-awaiting-approval', 'alice', {})).body.output.items;
    expect(listed.awaiting).toEqual(['approvers']);
    expect(listed.source).toEqual(
      Object.keys(promotion.services).map(service => ({
        service,
        stillInSource: true,
        verdict: expect.stringMatching(/^(healthy|progressing|unhealthy|unknown)$/),
      })),
    );

    const byBob = await invoke('approve-promotion', 'bob', { id: promotion.id });
    expect(refusal(byBob)).toEqual(refusal(await route('post', `promotions/${promotion.id}/approve`, 'bob')));
    expect(byBob.status).toBe(403);
    expect(byBob.body.error.message).toMatch(/not a release-approver/);
    expect((await invoke('approve-promotion', 'alice', { id: 'not-an-id' })).status).toBe(400);

    // staging mid-rollout: the approval triggers the Gate's look, which must not merge before the second approval below.
    world.stageHealth({ team: 'alpha', product: shop.product }, 'staging', 'Progressing');
    const byAlice = await invoke('approve-promotion', 'alice', { id: promotion.id });
    expect(byAlice.status).toBe(200);
    expect(byAlice.body.output.promotion).toMatchObject({ status: 'approved', approvedBy: 'user:default/alice' });
    expect((await invoke('approve-promotion', 'alice', { id: promotion.id })).body.output.promotion.status).toBe('approved');
    world.resync();
  });

  it('holds and resumes as the routes do: owners in test, release-approvers only at prod', async () => {
    const cell = { product: shop.ref, stage: 'test', service: 'storefront', reason: 'load test' };
    const held = await invoke('hold', 'bob', cell);
    expect(held.status).toBe(200);
    expect(held.body.output.hold).toMatchObject({ stage: 'test', service: 'storefront', placedBy: 'user:default/bob' });
    expect((await invoke('hold', 'bob', { ...cell, reason: 'again' })).body.output.hold.reason).toBe('load test');
    expect((await invoke('resume', 'bob', { ...cell, reason: 'done' })).status).toBe(200);
    const twice = await invoke('resume', 'bob', { ...cell, reason: 'done' });
    expect(twice.status).toBe(404);
    expect(refusal(twice)).toEqual(refusal(await route('delete', `products/${shop.ref}/holds/test/storefront`, 'bob')));

    const prod = { product: shop.ref, stage: 'prod', service: 'cart', reason: 'incident' };
    expect((await invoke('hold', 'alice', prod)).status).toBe(200);
    const byBob = await invoke('resume', 'bob', prod);
    expect(byBob.status).toBe(403);
    expect(refusal(byBob)).toEqual(refusal(await route('delete', `products/${shop.ref}/holds/prod/cart`, 'bob')));
    expect(byBob.body.error.message).toMatch(/needs a release-approver/);
    expect((await invoke('resume', 'alice', prod)).status).toBe(200);
  });

  it('answers anonymous callers 401, as the routes do', async () => {
    const response = await request(server)
      .post('/api/promotions/.backstage/actions/v1/actions/promotions:get-ladder/invoke')
      .send({ product: 'alpha/shop' });
    expect(response.status).toBe(401);
    expect((await request(server).get('/api/promotions/products/alpha/shop/ladder')).status).toBe(401);
  });
});
