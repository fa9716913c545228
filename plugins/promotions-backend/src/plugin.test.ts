import { createBackendModule } from '@backstage/backend-plugin-api';
import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import type { Ladder } from '@refplat/plugin-promotions-common';
import {
  HealthSource,
  PromotionsDirectory,
  promotionsDirectoryExtensionPoint,
  PromotionsHealthSourceFactory,
  promotionsHealthSourceExtensionPoint,
} from '@refplat/plugin-promotions-node';
import { FakeDirectory, FakeHealthSource, InMemoryPlatformRepo } from '@refplat/plugin-promotions-node/testUtils';
import Knex from 'knex';
import net from 'net';
import request from 'supertest';
import { startGithubFilesStub } from './__testUtils__/githubFilesStub';
import { readPromotionsConfig } from './config';
import { releasePath } from './ladder/readProductRecords';
import { SHOP, STAGES, digest, releaseFile } from './promotions/__testUtils__/promotionsWorld';
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

describe('the plugin with a GitHub that cannot be reached', () => {
  it('answers a ladder read 503 at once, saying the host refused the connection, not "HTTP 500" after retries', async () => {
    // A port nothing listens on any more: the connection is refused.
    const closed = net.createServer();
    await new Promise<void>(resolve => closed.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(closed.address() as net.AddressInfo).port}`;
    await new Promise(resolve => closed.close(resolve));
    const knex = Knex({ client: 'better-sqlite3', connection: ':memory:', useNullAsDefault: true });
    const backend = await startTestBackend({
      features: [
        promotionsPlugin,
        healthSourceModule('fake-health', new FakeHealthSource()),
        mockServices.rootConfig.factory({
          data: {
            integrations: { github: [{ host, apiBaseUrl: `http://${host}`, token: 'stub' }] },
            promotions: {
              platformRepo: { host, owner: 'platform', repo: 'gitops' },
              healthStream: { enabled: false },
              metrics: { enabled: false },
            },
          },
        }),
        mockServices.scheduler.mock().factory,
        mockServices.database.factory({ knex }),
        catalogServiceMock.factory(),
      ],
    });
    try {
      const started = Date.now();
      const response = await request(backend.server).get('/api/promotions/products/alpha/shop/ladder');
      const elapsedMs = Date.now() - started;
      expect(response.status).toBe(503);
      expect(response.body.error.message).toMatch(
        /GitHub at 127\.0\.0\.1:\d+ cannot be reached: nothing accepts connections at its address \(ECONNREFUSED\)/,
      );
      expect(response.body.error.message).not.toMatch(/HTTP 500/);
      // octokit's retries of a 500 would take 1 + 4 + 9 s per read.
      expect(elapsedMs).toBeLessThan(5_000);
    } finally {
      await backend.stop();
      await knex.destroy();
    }
  });
});

/**
 * A module that replaces the health source, as an adopter's would; what its
 * call threw, if it threw, is kept in `refused` instead of stopping the backend.
 */
const healthSourceModule = (
  moduleId: string,
  source: HealthSource | PromotionsHealthSourceFactory,
  refused: Error[] = [],
) =>
  createBackendModule({
    pluginId: 'promotions',
    moduleId,
    register(env) {
      env.registerInit({
        deps: { health: promotionsHealthSourceExtensionPoint },
        async init({ health }) {
          try {
            health.setHealthSource(source);
          } catch (error) {
            refused.push(error as Error);
          }
        },
      });
    },
  });

/** A module that replaces the catalog as the directory (a refusal kept as above). */
const directoryModule = (moduleId: string, directory: PromotionsDirectory, refused: Error[] = []) =>
  createBackendModule({
    pluginId: 'promotions',
    moduleId,
    register(env) {
      env.registerInit({
        deps: { directory: promotionsDirectoryExtensionPoint },
        async init({ directory: point }) {
          try {
            point.setDirectory(directory);
          } catch (error) {
            refused.push(error as Error);
          }
        },
      });
    },
  });

/**
 * alpha/shop's Release records on a GitHub that serves only the repo's files,
 * no ArgoCD or Kubernetes configured, and the Gate and the other tasks not
 * run (a mock scheduler): what a ladder view reads, and nothing else.
 */
describe('the extension points', () => {
  const repo = new InMemoryPlatformRepo();
  let github: Awaited<ReturnType<typeof startGithubFilesStub>>;
  let config: object;

  beforeAll(async () => {
    github = await startGithubFilesStub(repo);
    config = {
      integrations: { github: [{ host: github.host, apiBaseUrl: github.apiBaseUrl, token: 'stub' }] },
      promotions: {
        platformRepo: { host: github.host, owner: 'platform', repo: 'gitops' },
        stages: STAGES,
        healthStream: { enabled: false },
        metrics: { enabled: false },
      },
    };
    const promotions = readPromotionsConfig(new ConfigReader(config));
    repo.commit({
      [releasePath(promotions, SHOP, 'dev')]: releaseFile('dev', { api: digest('b') }),
      [releasePath(promotions, SHOP, 'uat')]: releaseFile('uat', { api: digest('a') }),
    });
  });

  afterAll(() => github?.stop());

  /** Each backend's own SQLite, closed after its test: an open pool would keep the worker alive. */
  const databases: Knex.Knex[] = [];
  const database = () => {
    const knex = Knex({ client: 'better-sqlite3', connection: ':memory:', useNullAsDefault: true });
    databases.push(knex);
    return knex;
  };
  afterEach(async () => {
    await Promise.all(databases.splice(0).map(knex => knex.destroy()));
  });

  const start = (...modules: ReturnType<typeof createBackendModule>[]) =>
    startTestBackend({
      features: [
        promotionsPlugin,
        ...modules,
        mockServices.rootConfig.factory({ data: config }),
        mockServices.scheduler.mock().factory,
        mockServices.database.factory({ knex: database() }),
        catalogServiceMock.factory(),
      ],
    });

  /** alpha/shop's System names its own approvers besides the configured ones. */
  const shopDirectory = () =>
    new FakeDirectory().setProduct(SHOP, {
      owners: ['group:default/alpha'],
      annotations: { 'refplat.org/approvers': 'group:default/shop-release' },
    });

  const ladder = async (server: Awaited<ReturnType<typeof start>>['server']): Promise<Ladder> => {
    const response = await request(server).get('/api/promotions/products/alpha/shop/ladder');
    expect([response.status, response.body.error?.message]).toEqual([200, undefined]);
    return response.body;
  };

  /** What alpha/shop's stages run, as one source sees them: dev its Release, uat Degraded. */
  const shopHealth = () => {
    // Its Applications sync the platform repo on this GitHub.
    const health = new FakeHealthSource({ platformRepoUrl: `https://${github.host}/platform/gitops` });
    health.runs(SHOP, 'dev', { api: digest('b') }, repo.branchHead()!);
    health.setApplication(SHOP, 'uat', { health: 'Degraded', images: [] });
    return health;
  };

  it("reads the health a module's source reports, where no health source is configured", async () => {
    const backend = await start(healthSourceModule('fake-health', shopHealth()));

    const [dev, uat] = (await ladder(backend.server)).stages;

    expect(dev.services.api).toMatchObject({ digest: digest('b'), healthy: true, verdict: 'healthy' });
    expect(dev.application).toMatchObject({ name: 'alpha-shop-dev', source: 'fake', healthStatus: 'Healthy' });
    expect(uat.application).toMatchObject({ healthStatus: 'Degraded' });
    expect(uat.services.api.healthy).toBe(false);
    expect(github.unanswered).toEqual([]);
    await backend.stop();
  });

  it("gives a module's factory the configured source to wrap (none here), and reads the factory's", async () => {
    const defaults: Array<HealthSource | undefined> = [];
    const backend = await start(
      healthSourceModule('wrapping-health', async ({ getDefault }) => {
        defaults.push(await getDefault());
        return shopHealth();
      }),
    );

    expect((await ladder(backend.server)).stages[0].services.api.healthy).toBe(true);
    expect(defaults).toEqual([undefined]);
    await backend.stop();
  });

  it('refuses a second health source and keeps the first', async () => {
    const refused: Error[] = [];
    const elsewhere = new FakeHealthSource({ source: 'elsewhere' });
    const backend = await start(
      healthSourceModule('one', shopHealth(), refused),
      healthSourceModule('two', elsewhere, refused),
    );

    expect(refused.map(error => error.message)).toEqual([
      'The promotions health source was already replaced by another module: at most one module may replace it',
    ]);
    expect((await ladder(backend.server)).stages[0].application?.source).toBe('fake');
    await backend.stop();
  });

  it("names the approvers a module's directory answers", async () => {
    const backend = await start(directoryModule('fake-directory', shopDirectory()));

    expect((await ladder(backend.server)).approvers).toEqual([
      'group:default/release-approvers',
      'group:default/shop-release',
    ]);
    await backend.stop();
  });

  it('refuses a second directory and keeps the first', async () => {
    const refused: Error[] = [];
    const backend = await start(
      directoryModule('one', shopDirectory(), refused),
      directoryModule('two', new FakeDirectory(), refused),
    );

    expect(refused.map(error => error.message)).toEqual([
      'The promotions directory was already replaced by another module: at most one module may replace it',
    ]);
    expect((await ladder(backend.server)).approvers).toContain('group:default/shop-release');
    await backend.stop();
  });
});
