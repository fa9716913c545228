import { coreServices, createBackendModule, createServiceFactory } from '@backstage/backend-plugin-api';
import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { AuthorizeResult, PolicyDecision, isPermission } from '@backstage/plugin-permission-common';
import { PolicyQuery, PolicyQueryUser } from '@backstage/plugin-permission-node';
import { policyExtensionPoint } from '@backstage/plugin-permission-node/alpha';
import permissionBackend from '@backstage/plugin-permission-backend';
import { promotionRequestPermission } from '@refplat/plugin-promotions-common';
import type { RunningSim } from '@refplat/platform-sim';
import request from 'supertest';
import { backendPerTest, githubWrites, sharedSimBackend } from '../__testUtils__/sharedSimBackend';
import { FAST_SIM_TIMINGS, startPromotionsBackend } from '../__testUtils__/testBackend';
import { Recorded, recordingAuditor } from '../__testUtils__/recordingAuditor';
import { createPromotionsProductConditionalDecision, promotionsProductConditions } from '../permissions/productRules';

jest.setTimeout(120_000);

type Server = Awaited<ReturnType<typeof startPromotionsBackend>>;

/**
 * Who may do what, and what the routes refuse, on one simulator and one
 * backend (recording what goes to Backstage's auditor). Tests that need a
 * backend configured their own way start it on the same simulator and stop
 * it after. The describe blocks run in this order on purpose: the two that
 * prove a refusal writes nothing to GitHub come before any that opens a
 * promotion the Gates would go on merging.
 */
const events: Recorded[] = [];
const shared = sharedSimBackend({ sim: FAST_SIM_TIMINGS, backend: { services: [recordingAuditor(events)] } });
const startBackend = backendPerTest();
let sim: RunningSim;
let server: Server;

beforeAll(() => {
  ({ sim, server } = shared);
});

const as = (name: string) => mockCredentials.user.header(`user:default/${name}`);
const A_DIGEST = `sha256:${'1'.repeat(64)}`;
const DIGEST = `sha256:${'2'.repeat(64)}`;

/** The newest earlier digest of a service in a stage's history, and the current one. */
async function earlierDigest(backend: Server, path: string, stage: string, service: string) {
  const history = await request(backend)
    .get(`/api/promotions/products/${path}/stages/${stage}/history`)
    .set('Authorization', as('bob'));
  const current = history.body.items[0].services[service];
  const earlier = history.body.items.find(
    (entry: { services: Record<string, string> }) =>
      entry.services[service] && entry.services[service] !== current,
  );
  return { current, earlier: earlier.services[service] as string };
}

const post = (path: string, user: string, body: object) =>
  request(server).post(`/api/promotions/products/${path}`).set('Authorization', as(user)).send(body);
const lift = (path: string, user: string) =>
  request(server).delete(`/api/promotions/products/${path}`).set('Authorization', as(user));
const liveHolds = async (product: string) =>
  (await request(server).get(`/api/promotions/products/${product}/holds`).set('Authorization', as('bob')))
    .body.items;

describe('who may change a Product', () => {
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
});

/**
 * An adopter's policy, as the README shows it: requests go to the Product's
 * owners and the release-approvers, by conditions the plugin resolves.
 */
const conditionalPolicyModule = createBackendModule({
  pluginId: 'permission',
  moduleId: 'conditional-promotions-policy',
  register(reg) {
    reg.registerInit({
      deps: { policy: policyExtensionPoint },
      async init({ policy }) {
        policy.setPolicy({
          async handle(query: PolicyQuery, user?: PolicyQueryUser): Promise<PolicyDecision> {
            if (isPermission(query.permission, promotionRequestPermission)) {
              const claims = user?.info.ownershipEntityRefs ?? [];
              return createPromotionsProductConditionalDecision(query.permission, {
                anyOf: [
                  promotionsProductConditions.isProductOwner({ claims }),
                  promotionsProductConditions.isInApproverGroups({ claims }),
                ],
              });
            }
            return { result: AuthorizeResult.ALLOW };
          },
        });
      },
    });
  },
});

/**
 * The mock auth service, except that a plugin calling another on a user's
 * behalf sends a user token naming itself as the actor, as the real auth
 * service does. The mock drops the actor, and the permissions registry's
 * apply-conditions endpoint refuses a user without one.
 */
const authWithActors = createServiceFactory({
  service: coreServices.auth,
  deps: { plugin: coreServices.pluginMetadata },
  factory({ plugin }) {
    const auth = mockServices.auth({ pluginId: plugin.getId() });
    const issue = auth.getPluginRequestToken.bind(auth);
    auth.getPluginRequestToken = async options => {
      const principal = options.onBehalfOf.principal;
      if (!auth.isPrincipal(options.onBehalfOf, 'user')) return issue(options);
      const { userEntityRef } = principal as { userEntityRef: string };
      return { token: mockCredentials.user.token(userEntityRef, { actor: { subject: `plugin:${plugin.getId()}` } }) };
    };
    return auth;
  },
});

describe('a conditional permission policy on Products', () => {
  it("lets the policy's isProductOwner condition decide requests: bob on alpha/shop, not on beta/payments", async () => {
    const { ref: shop } = await shared.addProduct('alpha/shop');
    // The plugin's own ownership check is off, so the 403 below is the policy's.
    const policyServer = await startBackend(sim, 'argocd', {
      permissions: { requireOwnership: false },
      rootConfig: { permission: { enabled: true } },
      services: [authWithActors],
      features: [permissionBackend, conditionalPolicyModule],
    });
    const requestPromotion = (product: string, user: string, toStage = 'test') =>
      request(policyServer)
        .post(`/api/promotions/products/${product}/promotions`)
        .set('Authorization', mockCredentials.user.header(`user:default/${user}`))
        .send({ toStage });

    sim.control.clearRequests();
    const refused = await requestPromotion('beta/payments', 'bob');
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('Not allowed: promotions.promotion.request on beta/payments');
    expect(githubWrites(sim)).toEqual([]);

    expect((await requestPromotion(shop, 'bob')).status).toBe(201);
    // alice owns no Product, but is a release-approver: the policy's other condition
    const toProd = await requestPromotion(shop, 'alice', 'prod');
    expect(toProd.status).toBe(201);

    // This policy allows approval to everyone; the plugin still wants a release-approver.
    const byBob = await request(policyServer)
      .post(`/api/promotions/promotions/${toProd.body.promotion.id}/approve`)
      .set('Authorization', mockCredentials.user.header('user:default/bob'));
    expect(byBob.status).toBe(403);
    expect(byBob.body.error.message).toMatch(/Bob Builder is not a release-approver/);

    // reading is unconditional in this policy
    const ladder = await request(policyServer)
      .get('/api/promotions/products/beta/payments/ladder')
      .set('Authorization', mockCredentials.user.header('user:default/bob'));
    expect(ladder.status).toBe(200);
  });
});

// alice is a release-approver: no 403 stands between her and the checks below
describe('requests about unknown Products, stages and services', () => {
  const send = (method: 'get' | 'post' | 'delete', path: string, body?: object) => {
    const pending = request(server)[method](`/api/promotions/products/${path}`).set('Authorization', as('alice'));
    return body ? pending.send(body) : pending;
  };

  it.each([
    ['get', 'nope/nope/holds', undefined],
    ['get', 'nope/nope/auto-promotions', undefined],
    ['get', 'nope/nope/promotions', undefined],
    ['get', 'nope/nope/changes?from=dev&to=test', undefined],
    ['get', 'nope/nope/stages/dev/history', undefined],
    ['post', 'nope/nope/holds', { stage: 'dev', service: 'storefront', reason: 'why not' }],
    ['delete', 'nope/nope/holds/dev/storefront', undefined],
    ['post', 'nope/nope/promotions', { toStage: 'test' }],
    ['post', 'nope/nope/rollbacks', { stage: 'dev', services: { storefront: DIGEST } }],
  ] as const)('%s %s answers 404', async (method, path, body) => {
    const response = await send(method, path, body);
    expect(response.status).toBe(404);
    expect(response.body.error.message).toMatch(/No Product nope\/nope/);
  });

  it('answers 404 for the history of a stage the ladder does not have', async () => {
    const response = await send('get', 'alpha/shop/stages/qa/history');
    expect(response.status).toBe(404);
    expect(response.body.error.message).toMatch(/Unknown stage 'qa'/);
  });

  it.each([
    [{ stage: 'qa', service: 'storefront', reason: 'x' }, /Unknown stage 'qa'/],
    [{ stage: 'uat', service: 'checkout', reason: 'x' }, /checkout is not a service of uat/],
    [{ stage: 'dev', service: 'ledger', reason: 'x' }, /ledger is not a service of dev/],
  ])('answers 400 to a hold on %p, and places none', async (body, message) => {
    const response = await send('post', 'alpha/shop/holds', body);
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(message);
    expect((await send('get', 'alpha/shop/holds')).body.items).toEqual([]);
  });

  it.each([
    ['?from=prod&to=dev', /prod is not below dev/],
    ['?from=test&to=test', /test is not below test/],
    ['?from=qa&to=prod', /Unknown stage 'qa'/],
    ['?from[]=dev&to=test', /Give the two stages/],
  ])('answers 400 to changes%s', async (query, message) => {
    const response = await send('get', `alpha/shop/changes${query}`);
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(message);
  });

  it('still answers for a known Product', async () => {
    for (const path of ['alpha/shop/holds', 'alpha/shop/auto-promotions', 'alpha/shop/promotions', 'alpha/shop/stages/dev/history']) {
      expect((await send('get', path)).status).toBe(200);
    }
  });
});

describe('who may lift a hold at prod', () => {
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

describe("security-relevant actions go to Backstage's auditor", () => {
  beforeEach(() => {
    events.length = 0;
  });

  const send = (path: string, user: string, body: object) =>
    request(server).post(`/api/promotions/${path}`).set('Authorization', as(user)).send(body);
  /** The settled events (succeeded or failed), each after its own `initiated`. */
  const settled = () => {
    const initiated = events.filter(e => e.status === 'initiated');
    const done = events.filter(e => e.status !== 'initiated');
    expect(initiated.map(e => e.eventId)).toEqual(done.map(e => e.eventId));
    return done;
  };

  it('records holds placed and lifted, and a refused hold as a failure with its error', async () => {
    const placed = await send('products/alpha/shop/holds', 'bob', { stage: 'uat', service: 'storefront', reason: 'load test' });
    expect(placed.status).toBe(201);
    const refused = await send('products/beta/payments/holds', 'bob', { stage: 'uat', service: 'ledger', reason: 'mine' });
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
    const requested = await send('products/alpha/shop/promotions', 'bob', { toStage: 'prod' });
    expect(requested.status).toBe(201);
    const promotion = requested.body.promotion;
    expect((await send(`promotions/${promotion.id}/approve`, 'bob', {})).status).toBe(403);
    expect((await send(`promotions/${promotion.id}/approve`, 'alice', {})).status).toBe(200);
    const rollback = await send('products/beta/payments/rollbacks', 'bob', {
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

describe('promotions.permissions.requireOwnership: false', () => {
  it('leaves requests and holds to the permission policy, but not lifting a hold at prod', async () => {
    const ownServer = await startBackend(sim, 'argocd', { permissions: { requireOwnership: false } });
    const hold = (path: string, user: string, body: object) =>
      request(ownServer).post(`/api/promotions/products/${path}`).set('Authorization', as(user)).send(body);

    expect((await hold('beta/payments/holds', 'bob', { stage: 'uat', service: 'ledger', reason: 'x' })).status).toBe(201);
    expect((await hold('beta/payments/holds', 'alice', { stage: 'prod', service: 'ledger', reason: 'x' })).status).toBe(201);
    const byBob = await request(ownServer)
      .delete('/api/promotions/products/beta/payments/holds/prod/ledger')
      .set('Authorization', as('bob'));
    expect(byBob.status).toBe(403);
  });
});
