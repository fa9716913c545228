import fs from 'fs';
import os from 'os';
import path from 'path';
import { stringify } from 'yaml';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { RunningSim, startPlatformSim } from '@refplat/platform-sim';
import { Browser } from 'playwright-core';
import { launchBrowser, screenshot } from '../__testUtils__/browser';
import { freePort, spawnBackend } from '../__testUtils__/backendProcess';
import { RunningBackend, whenReady } from '../__testUtils__/runningBackend';
import { buildAndPack } from '../install/__testUtils__/tarballs';
import {
  addBackendStep,
  addConfigStep,
  runShellSteps,
} from '../install/__testUtils__/readmeSteps';
import {
  AdopterTools,
  createApp,
  installTools,
  installedVersions,
  pinRelease,
  yarn,
} from './__testUtils__/createApp';

// A whole Backstage from the registry (Yarn fetches ~2,700 packages), native
// builds, an app build and a first backend start on a loaded 2-core machine.
jest.setTimeout(60 * 60_000);

const PLUGIN_APIS = [
  '@backstage/core-plugin-api',
  '@backstage/frontend-plugin-api',
  '@backstage/backend-plugin-api',
];

/**
 * An adopter's first hour: `@backstage/create-app`'s own app (its Yarn 4
 * template), the README's Install steps performed as written, then the
 * app in a browser. `npm run test:adopter`; not part of `npm test`.
 */
describe("the plugins in the app @backstage/create-app makes, installed by the README's Yarn steps", () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'promotions-adopter-'));
  const appDir = path.join(work, 'backstage');
  let tools: AdopterTools;
  let before: Record<string, string[]>;
  let after: Record<string, string[]>;
  let sim: RunningSim;
  let backend: RunningBackend;
  let browser: Browser;

  beforeAll(async () => {
    tools = installTools(path.join(work, 'tools'));
    createApp(tools, appDir);
    pinRelease(tools, appDir);
    yarn(tools, appDir, ['install']);
    before = installedVersions(appDir, PLUGIN_APIS);

    const tarballDir = path.join(work, 'tarballs');
    buildAndPack(tarballDir);
    runShellSteps('yarn', appDir, tarballDir, tools.env);
    addBackendStep(path.join(appDir, 'packages/backend/src/index.ts'));
    const appConfig = path.join(appDir, 'app-config.yaml');
    addConfigStep('app-extensions', appConfig);
    addConfigStep('action-sources', appConfig);
    after = installedVersions(appDir, PLUGIN_APIS);
    yarn(tools, appDir, ['workspace', 'app', 'build']);

    sim = await startPlatformSim();
    backend = await startAdopterBackend(appDir, tools, sim);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await backend?.stop();
    await sim?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it("adds no copy of Backstage's plugin API packages to the app", () => {
    expect(after).toEqual(before);
    // The backend has one of each; so does the app, except the frontend API
    // whenever create-app's own plugins already bring two.
    expect(after['@backstage/core-plugin-api']).toHaveLength(1);
    expect(after['@backstage/backend-plugin-api']).toHaveLength(1);
  });

  it('answers the ladder and lists the promotion actions as MCP tools', async () => {
    const token = await backend.guestToken();
    expect(
      await backend.eventuallyOk('/api/promotions/products/alpha/shop/ladder', token),
    ).toBe(200);

    const client = new Client({ name: 'promotions-adopter', version: '0.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${backend.baseUrl}/api/mcp-actions/v1`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const { tools: mcpTools } = await client.listTools();
      expect(mcpTools.map(tool => tool.name)).toEqual(
        expect.arrayContaining(['promotions.get-ladder', 'promotions.explain']),
      );
    } finally {
      await client.close();
    }
  });

  it.each([1280, 1920])(
    'puts the ladder first on the shop System overview at %i px, every Promote button whole',
    async width => {
      const token = await backend.guestToken();
      expect(
        await backend.eventuallyOk('/api/catalog/entities/by-name/system/default/shop', token),
      ).toBe(200);
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      try {
        await page.goto(`${backend.baseUrl}/catalog/default/system/shop`);
        await page.getByRole('button', { name: /enter/i }).click();
        const card = page.getByTestId('ladder-card');
        await page.getByTestId('stage-prod').waitFor({ timeout: 60_000 });
        const components = page.getByText('Has components').first();
        await components.waitFor({ timeout: 60_000 });

        // The Promote buttons arrive with the viewer's permissions, a moment after the ladder.
        const promoteButtons = card.locator('[data-testid^="request-promotion-"]');
        await promoteButtons.first().waitFor({ timeout: 60_000 });
        await screenshot(page, `adopter-create-app-shop-${width}`);

        const cardBox = (await card.boundingBox())!;
        const componentsBox = (await components.boundingBox())!;
        expect(cardBox.y).toBeLessThan(componentsBox.y);
        // Above the fold: the card starts within the first screen.
        expect(cardBox.y).toBeLessThan(800);
        for (const button of await promoteButtons.all()) {
          const box = (await button.boundingBox())!;
          expect(box.x).toBeGreaterThanOrEqual(cardBox.x);
          expect(box.x + box.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
          // One line: a wrapped label doubles a button's height.
          expect(box.height).toBeLessThan(40);
        }
      } finally {
        await page.close();
      }
    },
  );
});

/**
 * Starts the app's backend as `yarn start` does, with this run's port and
 * the simulator as GitHub and ArgoCD in a config file of its own.
 */
async function startAdopterBackend(
  appDir: string,
  tools: AdopterTools,
  sim: RunningSim,
): Promise<RunningBackend> {
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const simHost = new URL(sim.url).host;
  const products = path.join(appDir, 'examples/refplat-products.yaml');
  fs.copyFileSync(
    path.resolve(__dirname, '../../../../examples/products.yaml'),
    products,
  );
  const configFile = path.join(appDir, 'app-config.adopter-test.yaml');
  fs.writeFileSync(
    configFile,
    stringify({
      app: { baseUrl },
      backend: { baseUrl, listen: { port }, cors: { origin: baseUrl } },
      integrations: {
        github: [
          { host: simHost, apiBaseUrl: sim.githubApiUrl, token: sim.tokens.github },
        ],
      },
      catalog: {
        locations: [
          {
            type: 'file',
            target: products,
            rules: [{ allow: ['System', 'Component', 'Group', 'User'] }],
          },
        ],
      },
      promotions: {
        platformRepo: { host: simHost, owner: 'refplat', repo: 'platform' },
        argocd: { baseUrl: sim.argocdUrl, token: sim.tokens.argocd },
      },
    }),
  );
  const process = spawnBackend(
    'yarn',
    ['start', '--config', '../../app-config.yaml', '--config', configFile],
    path.join(appDir, 'packages/backend'),
    tools.env,
  );
  return whenReady(baseUrl, process);
}
