import { mockCredentials } from '@backstage/backend-test-utils';
import { isValidDigest, isValidName } from '@refplat/plugin-promotions-common';
import fc from 'fast-check';
import request from 'supertest';
import { githubWrites, sharedSimBackend } from '../__testUtils__/sharedSimBackend';

jest.setTimeout(600_000);

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

describe('malformed requests', () => {
  const shared = sharedSimBackend();

  const send = (generated: MalformedRequest) => {
    let pending = request(shared.server)[generated.method](generated.path);
    if (generated.authorization) pending = pending.set('Authorization', generated.authorization);
    if (generated.contentType) pending = pending.set('Content-Type', generated.contentType);
    if (generated.contentEncoding) pending = pending.set('Content-Encoding', generated.contentEncoding);
    return generated.body === undefined ? pending : pending.send(Buffer.from(generated.body, 'latin1'));
  };

  it(`answers ${RUNS} generated malformed requests across every route with 4xx, short messages, and no GitHub write`, async () => {
    shared.sim.control.clearRequests();
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
    expect(githubWrites(shared.sim)).toEqual([]);
    for (const path of PRODUCTS) {
      const holds = await request(shared.server)
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
  });
});
