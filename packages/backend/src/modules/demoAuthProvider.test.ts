import path from 'path';
import { AddressInfo } from 'net';
import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import { ConfigSources, StaticConfigSource } from '@backstage/config-loader';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import type { JsonObject } from '@backstage/types';
import authPlugin from '@backstage/plugin-auth-backend';
import githubSignInModule from '@backstage/plugin-auth-backend-module-github-provider';
import { DEMO_USER_HEADER, demoAuthProviderModule, demoSignInRefusal } from './demoAuthProvider';

jest.setTimeout(60_000);

const REPO_ROOT = path.resolve(__dirname, '../../../..');

/** The repo's config files merged as `--config a --config b` does, ${VARS} filled in. */
async function repoConfig(files: string[], override: JsonObject = {}): Promise<JsonObject> {
  const source = ConfigSources.merge([
    ConfigSources.defaultForTargets({
      rootDir: REPO_ROOT,
      targets: files.map(file => ({ type: 'path' as const, target: path.join(REPO_ROOT, file) })),
      watch: false,
      substitutionFunc: async name => `test-${name.toLowerCase()}`,
    }),
    StaticConfigSource.create({ data: override }),
  ]);
  const config = await ConfigSources.toConfig(source);
  config.close();
  return config.get<JsonObject>();
}

/** The production example's PostgreSQL, replaced by SQLite in memory for the test. */
const IN_MEMORY_DATABASE = { backend: { database: { client: 'better-sqlite3', connection: ':memory:' } } };

const ALICE = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'User',
  metadata: { name: 'alice', namespace: 'default' },
  spec: { memberOf: ['release-approvers'] },
  relations: [{ type: 'memberOf', targetRef: 'group:default/release-approvers' }],
};

/** The host's auth plugin with both sign-in modules, under the given NODE_ENV. */
async function startAuth(config: JsonObject, nodeEnv: string) {
  process.env.NODE_ENV = nodeEnv;
  const { server } = await startTestBackend({
    features: [
      authPlugin,
      githubSignInModule,
      demoAuthProviderModule,
      mockServices.rootConfig.factory({ data: config }),
      catalogServiceMock.factory({ entities: [ALICE] }),
    ],
  });
  const url = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    get: (route: string, headers: Record<string, string> = {}) =>
      fetch(`${url}${route}`, {
        headers: { 'x-requested-with': 'XMLHttpRequest', ...headers },
        redirect: 'manual',
      }),
  };
}

describe('demoSignInRefusal', () => {
  it.each([
    [{ authEnvironment: 'development', nodeEnv: 'development' }, undefined],
    [{ authEnvironment: 'development', nodeEnv: 'test' }, undefined],
    [{ authEnvironment: 'development', nodeEnv: undefined }, undefined],
    [{ authEnvironment: 'development', nodeEnv: 'production' }, 'NODE_ENV is production'],
    [{ authEnvironment: 'production', nodeEnv: 'development' }, 'auth.environment is production, not development'],
    [{ authEnvironment: undefined, nodeEnv: 'development' }, 'auth.environment is not set, not development'],
    [{ authEnvironment: 'production', nodeEnv: 'production' }, 'NODE_ENV is production'],
  ])('%p refuses with %p', (environment, refusal) => {
    expect(demoSignInRefusal(environment)).toBe(refusal);
  });
});

describe('the host backend sign-in over the repo config files', () => {
  const nodeEnv = process.env.NODE_ENV;
  afterEach(() => {
    process.env.NODE_ENV = nodeEnv;
  });

  it('signs demo users in for the local demo (app-config.yaml, development)', async () => {
    const auth = await startAuth(await repoConfig(['app-config.yaml']), 'development');
    const alice = await auth.get('/api/auth/demo/refresh', { [DEMO_USER_HEADER]: 'alice' });
    expect(alice.status).toBe(200);
    expect((await alice.json()).backstageIdentity.identity).toMatchObject({
      userEntityRef: 'user:default/alice',
      ownershipEntityRefs: expect.arrayContaining(['group:default/release-approvers']),
    });
    expect((await auth.get('/api/auth/demo/refresh', { [DEMO_USER_HEADER]: 'mallory' })).status).toBe(401);
  });

  it.each([
    ['NODE_ENV=production', {}, 'production'],
    ['auth.environment: production', { auth: { environment: 'production' } }, 'development'],
  ])('leaves the demo sign-in out under %s', async (_name, override, env) => {
    const auth = await startAuth(await repoConfig(['app-config.yaml'], override), env);
    expect((await auth.get('/api/auth/demo/refresh', { [DEMO_USER_HEADER]: 'alice' })).status).toBe(404);
  });

  it('replaces the demo organisation with the production example\'s catalog', async () => {
    const production = await repoConfig(['app-config.yaml', 'app-config.production.yaml']);
    const targets = (production.catalog as { locations: { target: string }[] }).locations.map(l => l.target);
    expect(targets).toEqual(['https://github.com/your-org/backstage-catalog/blob/main/all.yaml']);
  });

  it('starts the production example with GitHub sign-in and no demo sign-in', async () => {
    const auth = await startAuth(
      await repoConfig(['app-config.yaml', 'app-config.production.yaml'], IN_MEMORY_DATABASE),
      'production',
    );
    const demo = await auth.get('/api/auth/demo/refresh', { [DEMO_USER_HEADER]: 'alice' });
    expect(demo.status).toBe(404);
    const github = await auth.get('/api/auth/github/start?env=production');
    expect(github.status).toBe(302);
    expect(github.headers.get('location')).toMatch(
      /^https:\/\/github\.com\/login\/oauth\/authorize\?.*client_id=test-auth_github_client_id/,
    );
  });
});
