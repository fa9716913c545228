import http from 'http';
import { AddressInfo } from 'net';
import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import type { Promotion } from '@refplat/plugin-promotions-common';
import { createPromotionsRequestAction } from './requestPromotion';

type Handler = (request: { method: string; url: string; authorization?: string; body: unknown }) => { status: number; body: object };

/** A stand-in for the promotions backend's routes, recording what it was asked. */
async function fakePromotionsBackend(handle: Handler) {
  const requests: Array<{ method: string; url: string; authorization?: string; body: unknown }> = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', chunk => (text += chunk));
    req.on('end', () => {
      const request = { method: req.method!, url: req.url!, authorization: req.headers.authorization, body: text ? JSON.parse(text) : undefined };
      requests.push(request);
      const { status, body } = handle(request);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/promotions`;
  return { baseUrl, requests, close: () => new Promise(resolve => server.close(resolve)) };
}

const promotion = (status: Promotion['status'], extra: Partial<Promotion> = {}): Promotion => ({
  id: '7c1f6a52-2b7e-4d5f-9a51-0f7a3c1e2d44',
  team: 'alpha',
  product: 'shop',
  fromStage: 'dev',
  toStage: 'test',
  services: { storefront: 'sha256:new' },
  status,
  requestedBy: 'user:default/bob',
  pullRequest: { number: 12, url: 'https://github.example/refplat/platform/pull/12' },
  createdAt: '2026-12-01T10:00:00.000Z',
  updatedAt: '2026-12-01T10:00:00.000Z',
  ...extra,
});

/** The context the scaffolder gives an action, with bob as the template's user. */
function actionContext(input: Record<string, unknown>) {
  const outputs: Record<string, unknown> = {};
  const context = {
    input,
    logger: mockServices.logger.mock(),
    workspacePath: '/tmp',
    output: (name: string, value: unknown) => {
      outputs[name] = value;
    },
    checkpoint: async ({ fn }: { fn: () => Promise<unknown> }) => fn(),
    createTemporaryDirectory: async () => '/tmp',
    getInitiatorCredentials: async () => mockCredentials.user('user:default/bob'),
    task: { id: 'task-1' },
    isDryRun: false,
  };
  return { context, outputs };
}

async function run(baseUrl: string, input: Record<string, unknown>) {
  const action = createPromotionsRequestAction(
    { auth: mockServices.auth(), discovery: mockServices.discovery.mock({ getBaseUrl: async () => baseUrl }) },
    { pollIntervalMs: 10 },
  );
  const { context, outputs } = actionContext(input);
  await action.handler(context as unknown as Parameters<typeof action.handler>[0]);
  return outputs;
}

describe('promotions:request', () => {
  let backend: Awaited<ReturnType<typeof fakePromotionsBackend>> | undefined;
  afterEach(async () => {
    await backend?.close();
    backend = undefined;
  });

  it("requests as the template's user and answers the promotion", async () => {
    backend = await fakePromotionsBackend(() => ({ status: 201, body: { existing: false, promotion: promotion('open') } }));
    const outputs = await run(backend.baseUrl, { product: 'alpha/shop', toStage: 'test', services: ['storefront'] });
    expect(outputs).toEqual({
      promotionId: '7c1f6a52-2b7e-4d5f-9a51-0f7a3c1e2d44',
      prUrl: 'https://github.example/refplat/platform/pull/12',
      status: 'open',
    });
    expect(backend.requests).toEqual([
      {
        method: 'POST',
        url: '/api/promotions/products/alpha/shop/promotions',
        authorization: `Bearer ${mockCredentials.service.token({ onBehalfOf: mockCredentials.user('user:default/bob'), targetPluginId: 'promotions' })}`,
        body: { toStage: 'test', services: ['storefront'] },
      },
    ]);
  });

  it('leaves services out of the request when none are given, so every differing one is promoted', async () => {
    backend = await fakePromotionsBackend(() => ({ status: 200, body: { existing: true, promotion: promotion('open') } }));
    await run(backend.baseUrl, { product: 'alpha/shop', toStage: 'test', services: [] });
    expect(backend.requests[0].body).toEqual({ toStage: 'test' });
  });

  it('waits until merged, reading the promotion again', async () => {
    const statuses: Promotion['status'][] = ['open', 'approved', 'merged'];
    backend = await fakePromotionsBackend(({ method }) =>
      method === 'POST'
        ? { status: 201, body: { existing: false, promotion: promotion('open') } }
        : { status: 200, body: { promotion: promotion(statuses.shift() ?? 'merged') } },
    );
    const outputs = await run(backend.baseUrl, { product: 'alpha/shop', toStage: 'test', wait: 'merged', timeout: '5s' });
    expect(outputs.status).toBe('merged');
    expect(backend.requests.map(r => `${r.method} ${r.url}`)).toEqual([
      'POST /api/promotions/products/alpha/shop/promotions',
      'GET /api/promotions/promotions/7c1f6a52-2b7e-4d5f-9a51-0f7a3c1e2d44',
      'GET /api/promotions/promotions/7c1f6a52-2b7e-4d5f-9a51-0f7a3c1e2d44',
      'GET /api/promotions/promotions/7c1f6a52-2b7e-4d5f-9a51-0f7a3c1e2d44',
    ]);
  });

  it('waits until healthy: merged, and the stage runs the promoted digest healthy on the ladder', async () => {
    const verdicts = ['progressing', 'healthy'];
    backend = await fakePromotionsBackend(({ method, url }) => {
      if (method === 'POST') return { status: 201, body: { existing: false, promotion: promotion('merged') } };
      const services = { storefront: { digest: 'sha256:new', verdict: verdicts.shift() ?? 'healthy' } };
      if (url.endsWith('/ladder')) return { status: 200, body: { stages: [{ name: 'test', services }] } };
      return { status: 200, body: { promotion: promotion('merged') } };
    });
    const outputs = await run(backend.baseUrl, { product: 'alpha/shop', toStage: 'test', wait: 'healthy' });
    expect(outputs.status).toBe('merged');
    expect(backend.requests.filter(r => r.url.endsWith('/ladder'))).toHaveLength(2);
  });

  it('fails with the reason when the rules refuse the request (409)', async () => {
    backend = await fakePromotionsBackend(() => ({
      status: 409,
      body: { error: { name: 'ConflictError', message: 'Promotion into test refused: nothing to promote' }, response: { statusCode: 409 } },
    }));
    await expect(run(backend.baseUrl, { product: 'beta/payments', toStage: 'test', wait: 'merged' })).rejects.toThrow(
      'The promotions backend answered 409; caused by ConflictError: Promotion into test refused: nothing to promote',
    );
  });

  it('fails when the promotion is closed while it waits', async () => {
    backend = await fakePromotionsBackend(({ method }) =>
      method === 'POST'
        ? { status: 201, body: { existing: false, promotion: promotion('open') } }
        : { status: 200, body: { promotion: promotion('closed', { statusReason: 'superseded by a newer promotion' }) } },
    );
    await expect(run(backend.baseUrl, { product: 'alpha/shop', toStage: 'test', wait: 'merged' })).rejects.toThrow(
      'Promotion 7c1f6a52-2b7e-4d5f-9a51-0f7a3c1e2d44 closed: superseded by a newer promotion',
    );
  });

  it('fails when the timeout passes first', async () => {
    backend = await fakePromotionsBackend(({ method }) =>
      method === 'POST'
        ? { status: 201, body: { existing: false, promotion: promotion('awaiting-approval') } }
        : { status: 200, body: { promotion: promotion('awaiting-approval') } },
    );
    await expect(run(backend.baseUrl, { product: 'alpha/shop', toStage: 'prod', wait: 'merged', timeout: '100ms' })).rejects.toThrow(
      /^Timed out waiting for promotion .* to be merged: it is awaiting-approval$/,
    );
  });

  it.each([
    ['a product that is not <team>/<product>', { product: 'shop', toStage: 'test' }, /product must be <team>\/<product>/],
    ['a timeout without a unit', { product: 'alpha/shop', toStage: 'test', wait: 'merged', timeout: '15' }, /timeout must be a number and a unit/],
  ])('refuses %s before requesting anything', async (_name, input, message) => {
    backend = await fakePromotionsBackend(() => ({ status: 500, body: {} }));
    await expect(run(backend.baseUrl, input)).rejects.toThrow(message);
    expect(backend.requests).toEqual([]);
  });

  it('declares its inputs for the scaffolder: wait is merged or healthy, product and toStage are required', () => {
    const action = createPromotionsRequestAction({ auth: mockServices.auth(), discovery: mockServices.discovery() });
    expect(action.supportsDryRun).toBe(true);
    expect(action.schema?.input).toMatchObject({
      required: ['product', 'toStage'],
      properties: { wait: { enum: ['merged', 'healthy'] } },
    });
    expect(Object.keys((action.schema?.output as { properties: object }).properties)).toEqual(['promotionId', 'prUrl', 'status']);
  });
});
