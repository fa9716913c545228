import { execFileSync } from 'child_process';
import fs from 'fs';
import path from 'path';
import { freePort, spawnBackend } from '../../__testUtils__/backendProcess';
import { RunningBackend, whenReady } from '../../__testUtils__/runningBackend';
import { REPO_ROOT } from './tarballs';

/**
 * A Backstage as an adopter has it, outside this repository: an npm
 * workspace with a backend from @backstage/backend-defaults. Its
 * dependencies are pinned to the versions this repo's lockfile installed,
 * so `npm install --prefer-offline` is served from the npm cache.
 */

/** The version of `name` this repo installed for the workspace in `from`. */
function repoVersion(name: string, from: string): string {
  const manifest = require.resolve(`${name}/package.json`, {
    paths: [path.join(REPO_ROOT, from)],
  });
  return JSON.parse(fs.readFileSync(manifest, 'utf8')).version;
}

function pinned(names: string[], from: string): Record<string, string> {
  return Object.fromEntries(names.map(name => [name, repoVersion(name, from)]));
}

function writeFile(file: string, content: string) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

function writeJson(file: string, value: unknown) {
  writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}

// The backend of a fresh app, in JavaScript so it runs without a build.
const BACKEND_INDEX = `const { createBackend } = require('@backstage/backend-defaults');

const backend = createBackend();
backend.add(import('@backstage/plugin-app-backend'));
backend.add(import('@backstage/plugin-auth-backend'));
backend.add(import('@backstage/plugin-auth-backend-module-guest-provider'));
backend.add(import('@backstage/plugin-catalog-backend'));
backend.start();
`;

// A fresh app on the new frontend system, as create-app makes it: createApp
// from @backstage/frontend-defaults, plugins found by feature discovery
// (app.packages: all), no EntityPage. Only the guest sign-in is added.
const APP_INDEX = `import ReactDOM from 'react-dom/client';
import { SignInPage } from '@backstage/core-components';
import { createApp } from '@backstage/frontend-defaults';
import { createFrontendModule } from '@backstage/frontend-plugin-api';
import { SignInPageBlueprint } from '@backstage/plugin-app-react';

const signInPage = SignInPageBlueprint.make({
  params: {
    loader: async () => props => <SignInPage {...props} providers={['guest']} />,
  },
});

const app = createApp({
  features: [createFrontendModule({ pluginId: 'app', extensions: [signInPage] })],
});

ReactDOM.createRoot(document.getElementById('root')!).render(app.createRoot());
`;

function writeApp(dir: string) {
  writeJson(path.join(dir, 'packages/app/package.json'), {
    name: 'app',
    version: '0.0.0',
    private: true,
    bundled: true,
    backstage: { role: 'frontend' },
    scripts: { build: 'backstage-cli package build' },
    dependencies: {
      ...pinned(
        [
          '@backstage/core-components',
          '@backstage/frontend-defaults',
          '@backstage/frontend-plugin-api',
          '@backstage/plugin-app-react',
          '@backstage/plugin-catalog',
          'react',
          'react-dom',
          'react-router-dom',
        ],
        'packages/app',
      ),
    },
    // jsdom as this repo pins it: npm's strict peers otherwise pick a jsdom
    // that @backstage/cli's optional peer range refuses.
    devDependencies: pinned(
      ['@backstage/cli', '@backstage/cli-defaults', 'jsdom'],
      '.',
    ),
  });
  writeFile(path.join(dir, 'packages/app/src/index.tsx'), APP_INDEX);
  for (const file of fs.readdirSync(
    path.join(REPO_ROOT, 'packages/app/public'),
  )) {
    writeFile(
      path.join(dir, 'packages/app/public', file),
      fs.readFileSync(
        path.join(REPO_ROOT, 'packages/app/public', file),
        'utf8',
      ),
    );
  }
  // Read at build time: feature discovery is part of the bundle.
  writeJson(path.join(dir, 'app-config.yaml'), {
    app: {
      title: 'Consumer Backstage',
      baseUrl: 'http://localhost:7007',
      packages: 'all',
    },
    backend: { baseUrl: 'http://localhost:7007' },
  });
}

/** Builds the app as `yarn build` would in a create-app monorepo. */
export function buildApp(dir: string): string {
  return execFileSync('npx', ['backstage-cli', 'package', 'build'], {
    cwd: path.join(dir, 'packages/app'),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 10 * 60_000,
  });
}

/** Writes the consumer's files (no plugin yet) into `dir`. */
export function writeConsumer(dir: string) {
  writeJson(path.join(dir, 'package.json'), {
    name: 'consumer-backstage',
    private: true,
    workspaces: ['packages/*'],
  });
  writeJson(path.join(dir, 'packages/backend/package.json'), {
    name: 'backend',
    version: '0.0.0',
    private: true,
    main: 'src/index.js',
    dependencies: {
      ...pinned(
        [
          '@backstage/backend-defaults',
          '@backstage/plugin-app-backend',
          '@backstage/plugin-auth-backend',
          '@backstage/plugin-catalog-backend',
          'better-sqlite3',
        ],
        'packages/backend',
      ),
      // Not used by this repo's backend; the release that matches its auth-node.
      '@backstage/plugin-auth-backend-module-guest-provider': '0.2.25',
      app: '0.0.0',
    },
  });
  writeApp(dir);
  writeFile(path.join(dir, 'packages/backend/src/index.js'), BACKEND_INDEX);
  writeFile(
    path.join(dir, 'examples/products.yaml'),
    fs.readFileSync(path.join(REPO_ROOT, 'examples/products.yaml'), 'utf8'),
  );
}

/** Whether ccache is on this machine (scripts/ensure-ccache.sh installs it). */
function hasCcache(): boolean {
  try {
    execFileSync('ccache', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The environment the README's npm steps run in `dir`: served from the npm
 * cache this repository's install filled, without audit and funding
 * requests. better-sqlite3 compiles through ccache where it is installed,
 * with paths relative to the consumer as scripts/ensure-deps.sh takes them
 * relative to this checkout: the compile this repository's install made
 * serves it (70 CPU-seconds otherwise, beside the unit tests).
 */
export function npmStepsEnv(dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  };
  if (!hasCcache()) return env;
  const throughCcache = (compiler: string) => (compiler.startsWith('ccache ') ? compiler : `ccache ${compiler}`);
  return {
    ...env,
    CC: throughCcache(process.env.CC ?? 'cc'),
    CXX: throughCcache(process.env.CXX ?? 'c++'),
    CCACHE_BASEDIR: dir,
    CCACHE_NOHASHDIR: '1',
  };
}

/** Starts the consumer's backend with plain node and `config` over its defaults. */
export async function startConsumerBackend(
  dir: string,
  config: Record<string, unknown>,
): Promise<RunningBackend> {
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const configFile = path.join(dir, `app-config.${port}.yaml`);
  writeJson(configFile, {
    app: { baseUrl, packages: 'all' },
    backend: {
      baseUrl,
      listen: { port },
      database: { client: 'better-sqlite3', connection: ':memory:' },
    },
    auth: { providers: { guest: {} } },
    catalog: {
      rules: [{ allow: ['Component', 'System', 'Group', 'User', 'Location'] }],
      locations: [
        { type: 'file', target: path.join(dir, 'examples/products.yaml') },
      ],
    },
    ...config,
  });
  // The app's build-time config first (app.title, app.packages), as a
  // create-app backend loads app-config.yaml, then this run's.
  const configArgs = [
    '--config',
    path.join(dir, 'app-config.yaml'),
    '--config',
    configFile,
  ];
  const backend = spawnBackend('node', ['packages/backend', ...configArgs], dir);
  return whenReady(baseUrl, backend, () => fs.rmSync(configFile, { force: true }));
}
