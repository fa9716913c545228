import { coreServices, createBackendModule, createServiceFactory } from '@backstage/backend-plugin-api';
import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { AuthorizeResult, PolicyDecision, isPermission } from '@backstage/plugin-permission-common';
import { PolicyQuery, PolicyQueryUser } from '@backstage/plugin-permission-node';
import { policyExtensionPoint } from '@backstage/plugin-permission-node/alpha';
import permissionBackend from '@backstage/plugin-permission-backend';
import { isValidDigest, isValidName, promotionRequestPermission } from '@refplat/plugin-promotions-common';
import fc from 'fast-check';
import request from 'supertest';
import { FakesBackend, startPromotionsBackendOnFakes } from '../__testUtils__/fakesBackend';
import { Recorded, recordingAuditor } from '../__testUtils__/recordingAuditor';
import { createPromotionsProductConditionalDecision, promotionsProductConditions } from '../permissions/productRules';

type Server = FakesBackend['server'];

/** One generated request; every one is malformed in at least one part. */
interface MalformedRequest {
  route: string;
  method: 'get' | 'post' | 'delete';
  path: string;
  authorization?: string;
  contentType?: string;
  contentEncoding?: string;
  body?: string;
}

/**
 * Access to the promotions API (was access.api.test.ts, then a suite on the simulator): who may
 * do what, what the routes refuse and what a refusal leaves behind, on the in-memory fakes
 * through the composition root (issue 46). A refusal is proved to write nothing by every call
 * the fake platform repo received: no other suite shares it. Tests that need a backend
 * configured their own way start one on fakes of their own and stop it after.
 */
describe('access to the promotions API', () => {
  const events: Recorded[] = [];
  let world: FakesBackend;
  let server: Server;
  const others: FakesBackend[] = [];
  /** A backend configured the test's own way, on fakes of its own, stopped after the test. */
  const startBackend = async (options: Parameters<typeof startPromotionsBackendOnFakes>[0]) => {
    const other = await startPromotionsBackendOnFakes(options);
    others.push(other);
    return other;
  };

  beforeAll(async () => {
    world = await startPromotionsBackendOnFakes({ services: [recordingAuditor(events)] });
    server = world.server;
  });

  afterEach(async () => {
    await Promise.all(others.splice(0).map(other => other.stop()));
  });

  afterAll(async () => {
    await world?.stop();
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

  describe('malformed requests', () => {
    const RUNS = 600;
    const MAX_MESSAGE_CHARS = 600;
    const PRODUCTS = ['alpha/shop', 'beta/payments'];
    const STAGES = ['dev', 'test', 'uat', 'staging', 'prod'];
    const SERVICES = ['storefront', 'cart', 'checkout', 'ledger', 'gateway'];

    // ---- parts --------------------------------------------------------------

    const user = fc.constantFrom('alice', 'bob', 'carol').map(name => mockCredentials.user.header(`user:default/${name}`));
    const badAuthorization = fc.oneof(
      fc.constantFrom('Bearer garbage', 'Basic YWxpY2U6', 'Bearer ', 'mock-user-token'),
      fc.stringMatching(/^[\x21-\x7e]{0,60}$/).map(text => `Bearer ${text}`),
    );

    /** Text that is not a name: wrong case, symbols, too long, unicode, empty. */
    const notAName = fc.oneof(
      fc.string({ maxLength: 100, unit: 'grapheme' }).filter(text => !isValidName(text)),
      fc.constantFrom('Alpha', 'a_b', '-x', 'x-', 'a'.repeat(64), '..', ' ', 'prod ', 'dev/test', '__proto__'),
    );
    /** A path segment that is no name or a name nobody configured; some are broken percent-encodings. */
    const badSegment = fc.oneof(
      notAName.map(encodeURIComponent),
      fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '%2e%2e', 'nope', 'qa', 'x'.repeat(5000)),
    );
    const jsonish = fc.jsonValue({ maxDepth: 3 });
    /** Anything but a valid name. */
    const notANameValue: fc.Arbitrary<unknown> = fc.oneof(
      notAName,
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(jsonish, { maxLength: 4 }),
      fc.dictionary(fc.string({ maxLength: 10 }), jsonish, { maxKeys: 4 }),
    );
    const notADigest: fc.Arbitrary<unknown> = fc.oneof(
      fc.string({ maxLength: 80 }).filter(text => !isValidDigest(text)),
      fc.constantFrom('latest', `sha256:${'A'.repeat(64)}`, `sha256:${'a'.repeat(63)}`, `sha512:${'a'.repeat(64)}`),
      fc.integer(),
      fc.array(jsonish, { maxLength: 3 }),
    );
    const stage = fc.constantFrom(...STAGES);
    const service = fc.constantFrom(...SERVICES);
    const digest = fc.stringMatching(/^sha256:[0-9a-f]{64}$/);

    /** Extra keys a sloppy client might add; they never make a body valid. */
    const withNoise = <T extends object>(body: fc.Arbitrary<T>) =>
      fc.tuple(body, fc.dictionary(fc.string({ maxLength: 12 }), jsonish, { maxKeys: 3 })).map(([fields, noise]) => ({
        ...noise,
        ...fields,
      }));

    const badPromotionBody = withNoise(
      fc.oneof(
        fc.record({ toStage: notANameValue }),
        fc.record({ toStage: notANameValue, services: fc.array(service, { minLength: 1, maxLength: 3 }) }),
        fc.record({
          toStage: stage,
          services: fc.oneof(
            fc.constant([]),
            fc.string({ maxLength: 20 }),
            fc.array(notANameValue, { minLength: 1, maxLength: 4 }),
            fc.dictionary(service, jsonish, { minKeys: 1, maxKeys: 3 }),
          ),
        }),
      ),
    );
    const badRollbackBody = withNoise(
      fc.oneof(
        fc.record({ stage: notANameValue, services: fc.dictionary(service, digest, { minKeys: 1, maxKeys: 2 }) }),
        fc.record({
          stage,
          services: fc.oneof(
            fc.constant({}),
            fc.dictionary(notAName, digest, { minKeys: 1, maxKeys: 3 }),
            fc.dictionary(service, notADigest, { minKeys: 1, maxKeys: 3 }),
            fc.array(service, { maxLength: 3 }),
            fc.string({ maxLength: 20 }),
          ),
        }),
      ),
    );
    const badHoldBody = withNoise(
      fc.oneof(
        fc.record({ stage: notANameValue, service, reason: fc.string({ minLength: 1 }) }),
        fc.record({ stage, service: notANameValue, reason: fc.string({ minLength: 1 }) }),
        fc.record({ stage: fc.constantFrom('qa', 'preprod'), service, reason: fc.constant('freeze') }),
        fc.record({ stage, service: fc.constantFrom('nope', 'billing'), reason: fc.constant('freeze') }),
        fc.record({ stage, service, reason: fc.oneof(fc.constantFrom('', '   ', '\n\t'), fc.integer(), fc.constant(null), fc.array(jsonish)) }),
        fc.record({ stage, service }),
      ),
    );

    const badRejectBody = fc.oneof(
      fc.record({ reason: fc.oneof(fc.constantFrom('', '   ', '\n\t', 'x'.repeat(1001)), fc.integer(), fc.constant(null), fc.array(jsonish)) }),
      fc.record({ reason: fc.string({ minLength: 1, maxLength: 50 }) }),
      fc.constant({}),
    );

    /** Bodies no JSON route can take, whatever the route. */
    const unusableJsonText = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.constantFrom('{', '{"toStage":', '[1,2', 'null', '"prod"', '42', 'true', '{"toStage":"test",}', "{'toStage':'test'}"),
      fc.integer({ min: 9, max: 20_000 }).map(depth => `{"toStage":${'['.repeat(depth)}${']'.repeat(depth)}}`),
      fc.integer({ min: 9, max: 3_000 }).map(depth => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
      fc.integer({ min: 33 * 1024, max: 256 * 1024 }).map(size => JSON.stringify({ toStage: 'test', pad: 'x'.repeat(size) })),
    );

    /** A JSON body sent wrongly: not parsed as JSON, an unsupported charset, or a broken encoding. */
    const wronglySent = (json: fc.Arbitrary<object>) =>
      fc.oneof(
        fc.tuple(json, fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', 'application/xml')).map(
          ([body, contentType]) => ({ body: JSON.stringify(body), contentType }),
        ),
        fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 64 }), fc.constantFrom('gzip', 'deflate', 'br', 'compress')).map(
          ([bytes, contentEncoding]) => ({ body: Buffer.from(bytes).toString('latin1'), contentType: 'application/json', contentEncoding }),
        ),
      );

    const malformedBody = (badJson: fc.Arbitrary<object>) =>
      fc.oneof(
        { weight: 4, arbitrary: badJson.map(body => ({ body: JSON.stringify(body), contentType: 'application/json' })) },
        { weight: 2, arbitrary: unusableJsonText.map(body => ({ body, contentType: 'application/json' })) },
        { weight: 1, arbitrary: wronglySent(badJson) },
      );

    const product = fc.constantFrom(...PRODUCTS);
    /** `team/product` with at least one part bad. */
    const badProduct = fc.oneof(
      fc.tuple(badSegment, fc.constantFrom('shop', 'payments')).map(([team, name]) => `${team}/${name}`),
      fc.tuple(fc.constantFrom('alpha', 'beta'), badSegment).map(([team, name]) => `${team}/${name}`),
    );

    // ---- routes ---------------------------------------------------------------

    const P = '/api/promotions';

    type Part = Partial<MalformedRequest>;
    const route = (name: string, method: MalformedRequest['method'], parts: fc.Arbitrary<Part>) =>
      fc.tuple(parts, user).map(([part, authorization]): MalformedRequest => ({
        route: name,
        method,
        path: '',
        authorization,
        ...part,
      }));

    /** A product route: a bad product in the path, or a good one and a bad body. */
    const productRoute = (
      name: string,
      method: MalformedRequest['method'],
      suffix: string,
      badBody?: fc.Arbitrary<object>,
    ) =>
      route(
        name,
        method,
        fc.oneof(
          badProduct.map(path => ({ path: `${P}/products/${path}/${suffix}`, body: badBody ? '{}' : undefined, contentType: 'application/json' })),
          ...(badBody
            ? [fc.tuple(product, malformedBody(badBody)).map(([path, body]) => ({ path: `${P}/products/${path}/${suffix}`, ...body }))]
            : []),
        ),
      );

    const badQuery = fc.oneof(
      fc.tuple(fc.constantFrom(...STAGES), fc.constantFrom(...STAGES))
        .filter(([from, to]) => STAGES.indexOf(from) >= STAGES.indexOf(to))
        .map(([from, to]) => `from=${from}&to=${to}`),
      fc.tuple(notAName, stage).map(([from, to]) => `from=${encodeURIComponent(from)}&to=${to}`),
      fc.tuple(stage, notAName).map(([from, to]) => `from=${from}&to=${encodeURIComponent(to)}`),
      fc.constantFrom('', 'from=dev', 'to=test', 'from[]=dev&to=test', 'from[a]=dev&to=test', 'from=dev&from=test&to=prod', 'from=qa&to=prod', 'from=%&to=%zz'),
    );

    /** Ids of no promotion: unknown ones, and ones that are no id at all. */
    const badId = fc.oneof(
      fc.uuid(),
      notAName.map(encodeURIComponent),
      fc.constantFrom('0'.repeat(36), '-'.repeat(36), 'x'.repeat(5000), '%', '%zz'),
    );

    const ROUTES = {
      'GET /health': route('GET /health', 'get', badAuthorization.map(authorization => ({ path: `${P}/health`, authorization }))),
      'GET ladder': productRoute('GET ladder', 'get', 'ladder'),
      'GET promotions': productRoute('GET promotions', 'get', 'promotions'),
      'POST promotions': productRoute('POST promotions', 'post', 'promotions', badPromotionBody),
      'POST rollbacks': productRoute('POST rollbacks', 'post', 'rollbacks', badRollbackBody),
      'GET holds': productRoute('GET holds', 'get', 'holds'),
      'POST holds': productRoute('POST holds', 'post', 'holds', badHoldBody),
      'DELETE hold': route(
        'DELETE hold',
        'delete',
        fc.oneof(
          fc.tuple(badProduct, stage, service).map(([path, s, svc]) => ({ path: `${P}/products/${path}/holds/${s}/${svc}` })),
          fc.tuple(product, badSegment, service).map(([path, s, svc]) => ({ path: `${P}/products/${path}/holds/${s}/${svc}` })),
          fc.tuple(product, stage, badSegment).map(([path, s, svc]) => ({ path: `${P}/products/${path}/holds/${s}/${svc}` })),
        ),
      ),
      'GET auto-promotions': productRoute('GET auto-promotions', 'get', 'auto-promotions'),
      'GET changes': route(
        'GET changes',
        'get',
        fc.oneof(
          fc.tuple(badProduct).map(([path]) => ({ path: `${P}/products/${path}/changes?from=dev&to=test` })),
          fc.tuple(product, badQuery).map(([path, query]) => ({ path: `${P}/products/${path}/changes?${query}` })),
        ),
      ),
      'GET history': route(
        'GET history',
        'get',
        fc.oneof(
          fc.tuple(badProduct, stage).map(([path, s]) => ({ path: `${P}/products/${path}/stages/${s}/history` })),
          fc.tuple(product, badSegment).map(([path, s]) => ({ path: `${P}/products/${path}/stages/${s}/history` })),
        ),
      ),
      'GET promotion': route('GET promotion', 'get', badId.map(id => ({ path: `${P}/promotions/${id}` }))),
      'POST approve': route(
        'POST approve',
        'post',
        fc.tuple(badId, fc.oneof(fc.constant(undefined), unusableJsonText)).map(([id, body]) => ({
          path: `${P}/promotions/${id}/approve`,
          body,
          contentType: body === undefined ? undefined : 'application/json',
        })),
      ),
      // No promotion has these ids, so even a usable reason answers 404.
      'POST reject': route(
        'POST reject',
        'post',
        fc.tuple(badId, malformedBody(badRejectBody)).map(([id, body]) => ({ path: `${P}/promotions/${id}/reject`, ...body })),
      ),
    };

    /** Any route, one in ten times without a valid token. */
    const malformedRequest = fc
      .tuple(
        fc.oneof(...Object.values(ROUTES)),
        fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: badAuthorization }),
      )
      .map(([generated, authorization]) => (authorization === undefined ? generated : { ...generated, authorization }));

    // ---- the property ---------------------------------------------------------


    const send = (generated: MalformedRequest) => {
      let pending = request(server)[generated.method](generated.path);
      if (generated.authorization) pending = pending.set('Authorization', generated.authorization);
      if (generated.contentType) pending = pending.set('Content-Type', generated.contentType);
      if (generated.contentEncoding) pending = pending.set('Content-Encoding', generated.contentEncoding);
      return generated.body === undefined ? pending : pending.send(Buffer.from(generated.body, 'latin1'));
    };

    it(`answers ${RUNS} generated malformed requests across every route with 4xx, short messages, and no GitHub write`, async () => {
      const mark = world.repo.calls.length;
      const answers: Array<{ route: string; status: number }> = [];

      await fc.assert(
        fc.asyncProperty(malformedRequest, async generated => {
          const response = await send(generated);
          answers.push({ route: generated.route, status: response.status });
          const message: string = response.body?.error?.message ?? '';
          if (response.status < 400 || response.status >= 500 || message.length > MAX_MESSAGE_CHARS) {
            throw new Error(`${generated.method.toUpperCase()} ${generated.path.slice(0, 200)} answered ${response.status}: ${message.slice(0, 300)}`);
          }
          // Backstage's error body, which the frontend's ResponseError.fromResponse parses.
          if (response.body?.response?.statusCode !== response.status || !response.body?.error?.name) {
            throw new Error(`${generated.method.toUpperCase()} ${generated.path.slice(0, 200)} answered ${response.status} with a non-standard body: ${response.text.slice(0, 300)}`);
          }
        }),
        { numRuns: RUNS },
      );

      expect(answers.length).toBeGreaterThanOrEqual(500);
      expect(answers.filter(answer => answer.status >= 500)).toEqual([]);
      expect(new Set(answers.map(answer => answer.route))).toEqual(new Set(Object.keys(ROUTES)));
      expect(world.writesSince(mark)).toEqual([]);
      for (const path of PRODUCTS) {
        const holds = await request(server)
          .get(`${P}/products/${path}/holds`)
          .set('Authorization', mockCredentials.user.header('user:default/bob'));
        expect(holds.body.items).toEqual([]);
      }

      const statuses = answers.reduce<Record<number, number>>((count, { status }) => {
        count[status] = (count[status] ?? 0) + 1;
        return count;
      }, {});
      // eslint-disable-next-line no-console
      console.log(`${answers.length} malformed requests, answers by status: ${JSON.stringify(statuses)}`);
    }, 600_000);
  });

  describe('who may change a Product', () => {
    it('answers 403 to a non-owner (bob on beta/payments) for a request, a hold and a rollback, and writes nothing', async () => {
      const mark = world.repo.calls.length;
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
      expect(world.writesSince(mark)).toEqual([]);
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
      const shop = 'alpha/shop';
      // The plugin's own ownership check is off, so the 403 below is the policy's.
      const policyWorld = await startBackend({
        permissions: { requireOwnership: false },
        rootConfig: { permission: { enabled: true } },
        services: [authWithActors],
        features: [permissionBackend, conditionalPolicyModule],
      });
      const policyServer = policyWorld.server;
      const requestPromotion = (product: string, user: string, toStage = 'test') =>
        request(policyServer)
          .post(`/api/promotions/products/${product}/promotions`)
          .set('Authorization', mockCredentials.user.header(`user:default/${user}`))
          .send({ toStage });

      const mark = policyWorld.repo.calls.length;
      const refused = await requestPromotion('beta/payments', 'bob');
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toBe('Not allowed: promotions.promotion.request on beta/payments');
      expect(policyWorld.writesSince(mark)).toEqual([]);

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
      ['?from[]=dev&to=test', /request\/query\/from must be string/],
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
      const { ref: shop } = world.addProduct('alpha/shop');
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
      const ownServer = (await startBackend({ permissions: { requireOwnership: false } })).server;
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
});
