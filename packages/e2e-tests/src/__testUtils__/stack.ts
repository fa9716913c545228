import { ChildProcess, execFileSync } from 'child_process';
import { randomBytes } from 'crypto';
import fs from 'fs';
import os from 'os';
import path from 'path';
import {
  RunningRegistry,
  RunningSim,
  SimOptions,
  startDockerRegistry,
  startPlatformSim,
  SIMULATOR_WRITE_BUDGET,
  SIMULATOR_WRITE_PACING,
} from '@refplat/platform-sim';
import { freePort, spawnBackend } from './backendProcess';
import { SuiteProductSpec, suiteProductEntities } from './products';

const REPO_ROOT = path.resolve(__dirname, '../../../..');
const BACKEND_DIR = path.join(REPO_ROOT, 'packages/backend');
const READY_TIMEOUT_MS = 120_000;
/**
 * How `backstage-cli package start` runs a backend from its TypeScript
 * sources, without the file watcher around it: an edit in the checkout
 * while a test runs must not restart the backend under the test.
 */
const BACKEND_LOADER = [
  '--enable-source-maps',
  '--require',
  require.resolve('@backstage/cli-node/config/nodeTransform.cjs', {
    paths: [path.dirname(require.resolve('@backstage/cli/package.json'))],
  }),
];
/** app-config.yaml's catalog locations: a config file that adds one must list them all (arrays are replaced). */
const DEMO_CATALOG = ['catalog-info.yaml', 'examples/org.yaml', 'examples/products.yaml', 'examples/templates/promote-service/template.yaml'];

export interface RunningStack {
  /** Where the app and its backend are served. */
  baseUrl: string;
  sim: RunningSim;
  /** main as the seed left it, before any test changed it. */
  seedCommit: string;
  /** With the `provenance` stack option: the docker-registry the simulator's CI pushes to. */
  registry?: RunningRegistry;
  backendLog: () => string;
  stop(): Promise<void>;
}

async function waitForReadiness(
  url: string,
  backend: ChildProcess,
  log: () => string,
) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (backend.exitCode !== null) {
      throw new Error(`Backend exited with ${backend.exitCode}:\n${log()}`);
    }
    try {
      const response = await fetch(`${url}/.backstage/health/v1/readiness`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise(resolve => setTimeout(resolve, 500));
  }
  throw new Error(`Backend not ready after ${READY_TIMEOUT_MS} ms:\n${log()}`);
}

/**
 * The whole product as a user gets it: the platform simulator, and the
 * Backstage backend (serving the built app) configured against it through
 * an extra config file, exactly like a real deployment's overrides.
 */
export async function startStack(
  simOptions: Partial<SimOptions> = {},
  promotionsConfig: Record<string, unknown> = {},
  /**
   * `webhooks`: the simulated GitHub delivers signed webhooks to the backend's events endpoint.
   * `products`: suites' own Products (products.ts), in the catalog from the start; each suite writes its onto main.
   * `provenance`: a docker-registry the simulator's CI pushes signed builds to, and `promotions.provenance` in
   *   enforce for these Products (`team/product`), with the simulator's trusted root and the seeds' workflows.
   */
  stackOptions: { webhooks?: boolean; products?: SuiteProductSpec[]; provenance?: { products: string[] } } = {},
): Promise<RunningStack> {
  if (!fs.existsSync(path.join(REPO_ROOT, 'packages/app/dist/index.html'))) {
    throw new Error(
      'The app is not built: run `npm run build:app` first (npm test does)',
    );
  }
  const registry = stackOptions.provenance ? await startDockerRegistry() : undefined;
  const sim = await startPlatformSim({ ...simOptions, ...(registry ? { registry: { url: registry.url } } : {}) });
  const seedCommit = execFileSync('git', ['--git-dir', sim.repoDir, 'rev-parse', 'refs/heads/main'], {
    encoding: 'utf8',
  }).trim();
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const simHost = new URL(sim.url).host;
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'promotions-e2e-'));
  const configFile = path.join(configDir, 'app-config.e2e.yaml');
  const webhookSecret = stackOptions.webhooks ? randomBytes(16).toString('hex') : undefined;
  const products = stackOptions.products ?? [];
  const productsFile = path.join(configDir, 'suite-products.yaml');
  if (products.length) fs.writeFileSync(productsFile, suiteProductEntities(products));
  fs.writeFileSync(
    configFile,
    JSON.stringify({
      app: { baseUrl },
      backend: { baseUrl, listen: { port } },
      ...(webhookSecret ? { events: { modules: { github: { webhookSecret } } } } : {}),
      ...(products.length
        ? {
            catalog: {
              locations: [...DEMO_CATALOG.map(file => path.join(REPO_ROOT, file)), productsFile].map(target => ({
                type: 'file',
                target,
              })),
            },
          }
        : {}),
      integrations: {
        github: [
          {
            host: simHost,
            apiBaseUrl: sim.githubApiUrl,
            token: sim.tokens.github,
          },
        ],
      },
      promotions: {
        platformRepo: { host: simHost, writePacing: SIMULATOR_WRITE_PACING, writeBudget: SIMULATOR_WRITE_BUDGET },
        argocd: { baseUrl: sim.argocdUrl, token: sim.tokens.argocd },
        // Tests decide for themselves when digests climb and what soaks.
        stages: ['dev', 'test', 'uat', 'staging', 'prod'],
        autoPromote: { enabled: false },
        gate: { enabled: true, frequency: { seconds: 2 } },
        ...(registry && stackOptions.provenance
          ? {
              provenance: {
                mode: 'enforce',
                products: stackOptions.provenance.products,
                stages: ['test', 'uat', 'staging', 'prod'],
                registry: { url: registry.url },
                trustedRoot: { url: sim.registry!.trustedRootUrl },
                signer: { ...sim.registry!.identities.signer },
                builder: { ...sim.registry!.identities.builder },
              },
            }
          : {}),
        ...promotionsConfig,
      },
    }),
  );

  const backend = spawnBackend(
    process.execPath,
    [...BACKEND_LOADER, 'src/index.ts', '--config', path.join(REPO_ROOT, 'app-config.yaml'), '--config', configFile],
    BACKEND_DIR,
    { ...process.env, ESBK_TSCONFIG_PATH: path.join(REPO_ROOT, 'tsconfig.json') },
  );
  const log = backend.log;

  const stop = async () => {
    await backend.stop();
    await sim.stop();
    await registry?.stop();
    fs.rmSync(configDir, { recursive: true, force: true });
  };

  try {
    await waitForReadiness(baseUrl, backend.child, log);
    if (webhookSecret) {
      sim.webhooks.configure({ url: `${baseUrl}/api/events/http/github`, secret: webhookSecret });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, sim, seedCommit, registry, backendLog: log, stop };
}

/** Tokens by backend and user: one lasts an hour, longer than a test file runs. */
const signedIn = new Map<string, Promise<string>>();

/**
 * A Backstage token for a demo user, as the sign-in page gets it, signed in
 * once per backend (every API call of a poll would sign in again otherwise).
 */
export function userToken(baseUrl: string, user: string): Promise<string> {
  const key = `${baseUrl} ${user}`;
  let token = signedIn.get(key);
  if (!token) {
    token = signIn(baseUrl, user);
    // A failed sign-in is tried afresh next time.
    token.catch(() => signedIn.delete(key));
    signedIn.set(key, token);
  }
  return token;
}

/** Sign-in needs the user in the catalog, which ingests the demo org at start-up. */
async function signIn(baseUrl: string, user: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(`${baseUrl}/api/auth/demo/refresh`, {
      headers: { 'x-demo-user': user, 'x-requested-with': 'XMLHttpRequest' },
    });
    if (response.ok) return (await response.json()).backstageIdentity.token;
    if (attempt > 60)
      throw new Error(`sign-in as ${user} failed: ${await response.text()}`);
    await new Promise(resolve => setTimeout(resolve, 500));
  }
}

/** Calls the promotions backend as a demo user, as the app would; answers status and JSON body. */
export async function callPromotions(
  baseUrl: string,
  user: string,
  method: string,
  route: string,
  body?: object,
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${baseUrl}/api/promotions${route}`, {
    method,
    headers: {
      authorization: `Bearer ${await userToken(baseUrl, user)}`,
      'content-type': 'application/json',
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: await response.json() };
}

/**
 * Polls a promotion until it reaches `status`; answers when that was seen
 * (ms since the epoch). Fails after `timeoutMs`, saying where it stood.
 */
export async function waitForPromotionStatus(
  baseUrl: string,
  id: string,
  status: string,
  options: { timeoutMs?: number; pollMs?: number } = {},
): Promise<number> {
  const { timeoutMs = 60_000, pollMs = 250 } = options;
  const deadline = Date.now() + timeoutMs;
  let last = 'unknown';
  while (Date.now() < deadline) {
    const { body } = await callPromotions(baseUrl, 'bob', 'GET', `/promotions/${id}`);
    if (body.promotion?.status === status) return Date.now();
    last = body.promotion ? `${body.promotion.status} (${body.promotion.statusReason})` : JSON.stringify(body);
    await new Promise(resolve => setTimeout(resolve, pollMs));
  }
  throw new Error(`promotion ${id} is still ${last} after ${timeoutMs} ms, not ${status}`);
}

/** Writes files on the platform repo's main one by one through the contents API, as a person editing on GitHub would. */
export async function putPlatformFiles(stack: RunningStack, message: string, files: Record<string, string>) {
  const { owner, repo } = stack.sim.options;
  const headers = {
    authorization: `token ${stack.sim.tokens.github}`,
    accept: 'application/vnd.github+json',
    'content-type': 'application/json',
  };
  for (const [file, text] of Object.entries(files)) {
    const url = `${stack.sim.githubApiUrl}/repos/${owner}/${repo}/contents/${file}`;
    const existing = await fetch(url, { headers });
    const sha = existing.ok ? ((await existing.json()) as { sha: string }).sha : undefined;
    const response = await fetch(url, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ message, content: Buffer.from(text).toString('base64'), sha, branch: 'main' }),
    });
    if (!response.ok) throw new Error(`PUT ${file} answered ${response.status}: ${await response.text()}`);
  }
}
