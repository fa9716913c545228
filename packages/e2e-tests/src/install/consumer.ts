import { ChildProcess, execFileSync, spawn } from 'child_process';
import fs from 'fs';
import net from 'net';
import path from 'path';
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
backend.add(import('@backstage/plugin-auth-backend'));
backend.add(import('@backstage/plugin-auth-backend-module-guest-provider'));
backend.add(import('@backstage/plugin-catalog-backend'));
backend.add(import('@refplat/plugin-promotions-backend'));
backend.start();
`;

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
          '@backstage/plugin-auth-backend',
          '@backstage/plugin-catalog-backend',
          'better-sqlite3',
        ],
        'packages/backend',
      ),
      // Not used by this repo's backend; the release that matches its auth-node.
      '@backstage/plugin-auth-backend-module-guest-provider': '0.2.25',
    },
  });
  writeFile(path.join(dir, 'packages/backend/src/index.js'), BACKEND_INDEX);
  writeFile(
    path.join(dir, 'examples/products.yaml'),
    fs.readFileSync(path.join(REPO_ROOT, 'examples/products.yaml'), 'utf8'),
  );
}

/** `npm install` in the consumer, as its README step says; returns the output. */
export function npmInstall(dir: string, args: string[] = []): string {
  return execFileSync(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', ...args],
    {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 15 * 60_000,
    },
  );
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningConsumer {
  baseUrl: string;
  log: () => string;
  /** A token from the guest sign-in, as the app gets one. */
  guestToken: () => Promise<string>;
  /** Polls a GET until it answers 200 (or 60 s pass); returns the last status. */
  eventuallyOk: (path: string, token: string) => Promise<number>;
  stop(): Promise<void>;
}

async function waitUntilReady(
  baseUrl: string,
  backend: ChildProcess,
  log: () => string,
) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (backend.exitCode !== null)
      throw new Error(`backend exited with ${backend.exitCode}:\n${log()}`);
    const ready = await fetch(`${baseUrl}/.backstage/health/v1/readiness`).then(
      r => r.ok,
      () => false,
    );
    if (ready) return;
    await new Promise(resolve => setTimeout(resolve, 500));
  }
  throw new Error(`backend not ready after 120 s:\n${log()}`);
}

/** Starts the consumer's backend with plain node and `config` over its defaults. */
export async function startConsumerBackend(
  dir: string,
  config: Record<string, unknown>,
): Promise<RunningConsumer> {
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const configFile = path.join(dir, `app-config.${port}.yaml`);
  writeJson(configFile, {
    app: { baseUrl },
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
  let output = '';
  const backend = spawn('node', ['packages/backend', '--config', configFile], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: 'development', FORCE_COLOR: '0' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  backend.stdout!.on('data', chunk => (output += chunk));
  backend.stderr!.on('data', chunk => (output += chunk));
  const log = () => output;
  const stop = async () => {
    if (backend.exitCode === null && backend.pid) {
      const exited = new Promise(resolve => backend.once('exit', resolve));
      process.kill(-backend.pid, 'SIGTERM');
      await Promise.race([
        exited,
        new Promise(resolve => setTimeout(resolve, 5000)),
      ]);
      if (backend.exitCode === null) process.kill(-backend.pid, 'SIGKILL');
    }
    fs.rmSync(configFile, { force: true });
  };
  try {
    await waitUntilReady(baseUrl, backend, log);
  } catch (error) {
    await stop();
    throw error;
  }
  const guestToken = async () => {
    const response = await fetch(`${baseUrl}/api/auth/guest/refresh`, {
      headers: { 'x-requested-with': 'XMLHttpRequest' },
    });
    if (!response.ok)
      throw new Error(`guest sign-in failed: ${await response.text()}`);
    return (await response.json()).backstageIdentity.token as string;
  };
  const eventuallyOk = async (route: string, token: string) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { status } = await fetch(`${baseUrl}${route}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      if (status === 200 || Date.now() > deadline) return status;
      await new Promise(resolve => setTimeout(resolve, 500));
    }
  };
  return { baseUrl, log, guestToken, eventuallyOk, stop };
}
