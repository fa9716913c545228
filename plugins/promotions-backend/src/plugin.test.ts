import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import request from 'supertest';
import { promotionsPlugin } from './plugin';

describe('the plugin without a promotions block', () => {
  const logger = mockServices.logger.mock();
  const database = mockServices.database.mock();
  const scheduler = mockServices.scheduler.mock();

  async function startWith(config: object) {
    const { server } = await startTestBackend({
      features: [
        promotionsPlugin,
        mockServices.rootConfig.factory({ data: config }),
        logger.factory,
        database.factory,
        scheduler.factory,
        catalogServiceMock.factory(),
      ],
    });
    return server;
  }

  it.each([
    ['no promotions block', {}],
    [
      'a promotions block without platformRepo',
      { promotions: { autoPromote: { enabled: true } } },
    ],
  ])(
    '%s: starts, warns once, answers 503 with the reason, writes nothing',
    async (_, config) => {
      const server = await startWith(config);

      for (const path of [
        '/api/promotions/products/alpha/shop/ladder',
        '/api/promotions/promotions/x',
      ]) {
        const response = await request(server).get(path);
        expect(response.status).toBe(503);
        // Backstage's error body, so the frontend's ResponseError parses the message out.
        expect(response.body).toMatchObject({
          error: { name: 'ServiceUnavailableError' },
          response: { statusCode: 503 },
        });
        expect(response.body.error.message).toMatch(
          /^promotions is not configured: set promotions\.platformRepo/,
        );
      }
      const write = await request(server)
        .post('/api/promotions/products/alpha/shop/promotions')
        .send({ toStage: 'test' });
      expect(write.status).toBe(503);

      const warnings = logger.warn.mock.calls.map(([message]) => message);
      expect(warnings).toEqual([
        expect.stringMatching(/^promotions is not configured: /),
      ]);
      expect(database.getClient).not.toHaveBeenCalled();
      expect(scheduler.scheduleTask).not.toHaveBeenCalled();
    },
  );

  it.each([
    [
      'an ArgoCD token left unset (${ARGOCD_AUTH_TOKEN} empty)',
      { argocd: { baseUrl: 'https://argocd.example.com' } },
      /^promotions is misconfigured: Missing required config value at 'promotions\.argocd\.token'/,
    ],
    [
      'an image template that names no Service',
      { images: { repository: '{registry}/shop' } },
      /^promotions is misconfigured: promotions\.images\.repository must name each Service's image with \{service\}/,
    ],
  ])('%s: starts, warns, and answers 503 saying what is wrong', async (_, promotions, message) => {
    const server = await startWith({ promotions: { platformRepo: { owner: 'o', repo: 'r' }, ...promotions } });
    const response = await request(server).get('/api/promotions/products/alpha/shop/ladder');
    expect(response.status).toBe(503);
    expect(response.body.error.message).toMatch(message);
    expect(logger.warn.mock.calls.map(([warning]) => warning)).toEqual([expect.stringMatching(message)]);
    expect(database.getClient).not.toHaveBeenCalled();
  });

  afterEach(() => jest.clearAllMocks());
});
