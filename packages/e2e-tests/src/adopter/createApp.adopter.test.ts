import fs from 'fs';
import path from 'path';
import { stringify } from 'yaml';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { RunningSim, startPlatformSim } from '@refplat/platform-sim';
import { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from '../__testUtils__/browser';
import { installScratchDir } from '../__testUtils__/installScratchDir';
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

const isBackstagePackage = (name: string) => name.startsWith('@backstage/');

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
  const work = installScratchDir('promotions-adopter-');
  const appDir = path.join(work, 'backstage');
  let tools: AdopterTools;
  let before: Record<string, string[]>;
  let after: Record<string, string[]>;
  let backstageBefore: Record<string, string[]>;
  let backstageAfter: Record<string, string[]>;
  let sim: RunningSim;
  let backend: RunningBackend;
  let browser: Browser;

  beforeAll(async () => {
    tools = installTools(path.join(work, 'tools'));
    createApp(tools, appDir);
    pinRelease(tools, appDir);
    yarn(tools, appDir, ['install']);
    before = installedVersions(appDir, PLUGIN_APIS);
    backstageBefore = installedVersions(appDir, isBackstagePackage);

    const tarballDir = path.join(work, 'tarballs');
    buildAndPack(tarballDir);
    runShellSteps('yarn', appDir, tarballDir, tools.env);
    addBackendStep(path.join(appDir, 'packages/backend/src/index.ts'));
    const appConfig = path.join(appDir, 'app-config.yaml');
    addConfigStep('app-extensions', appConfig);
    addConfigStep('action-sources', appConfig);
    after = installedVersions(appDir, PLUGIN_APIS);
    backstageAfter = installedVersions(appDir, isBackstagePackage);
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

  it('adds no second copy of any @backstage/* package, and one of each it brings new', () => {
    const added = Object.entries(backstageAfter).filter(
      ([name, versions]) => versions.join() !== (backstageBefore[name] ?? []).join(),
    );
    // A package the app had keeps its versions; one the plugins bring has one version.
    expect(
      added.filter(([name, versions]) => backstageBefore[name] !== undefined || versions.length > 1),
    ).toEqual([]);
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
      const page = await openSystem(backend, 'shop', width);
      try {
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

  /** A System's page as create-app's guest sees it, signed in with the sign-in page's Enter. */
  async function openSystem(on: RunningBackend, system: string, width: number): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height: 800 } });
    await page.goto(`${on.baseUrl}/catalog/default/system/${system}`);
    await page.getByRole('button', { name: /enter/i }).click();
    return page;
  }

  /** The Overview card around the ladder: where its content must stay. */
  const cardAround = (page: Page) =>
    page.getByTestId('ladder-card').locator('xpath=ancestor::*[contains(@class, "MuiCard-root")][1]');

  it("keeps In flight, Approve included, inside create-app's Overview card at 1280 px", async () => {
    const token = await backend.guestToken();
    // The guest is in the catalog (alpha, release-approvers): its own prod request awaits another approver.
    const requested = await fetch(`${backend.baseUrl}/api/promotions/products/alpha/shop/promotions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ toStage: 'prod' }),
    });
    expect({ status: requested.status, body: await requested.json() }).toMatchObject({ status: 201 });
    const page = await openSystem(backend, 'shop', 1280);
    try {
      const approve = page.locator('button[data-testid^="approve-"]').first();
      await approve.waitFor({ timeout: 60_000 });
      const inFlight = page.getByRole('table', { name: 'Promotions in flight' });
      await inFlight.scrollIntoViewIfNeeded();
      await screenshot(page, 'adopter-create-app-in-flight-1280');
      const cardBox = (await cardAround(page).boundingBox())!;
      const tableBox = (await inFlight.boundingBox())!;
      const approveBox = (await approve.boundingBox())!;
      expect(tableBox.x + tableBox.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
      expect(approveBox.x).toBeGreaterThanOrEqual(cardBox.x);
      expect(approveBox.x + approveBox.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
    } finally {
      await page.close();
    }
  });

  it("shows GitHub's refusal of a request (422) in the dialog, in the backend's words", async () => {
    sim.control.addFault({ target: 'github', method: 'POST', path: '/pulls', status: 422, message: 'Validation Failed', count: 1 });
    const page = await openSystem(backend, 'shop', 1280);
    try {
      await shownOrScreenshot(page, 'adopter-create-app-request-422', async () => {
        // dev's storefront is newer than test's (the Promote arrow under test).
        const promote = page.locator('[data-testid="request-promotion-test"]:enabled');
        await promote.waitFor({ timeout: 60_000 });
        await promote.click();
        await page.getByTestId('promotion-dialog').waitFor();
        await page.getByTestId('promotion-submit').click();
        await page.getByTestId('promotion-error').waitFor({ timeout: 60_000 });
      });
      expect(await page.getByTestId('promotion-error').textContent()).toMatch(
        /GitHub failed while .*\(HTTP 422\): Validation Failed/,
      );
      // The dialog is not left on "Requesting…": the person may try again.
      expect(await page.getByTestId('promotion-submit').isEnabled()).toBe(true);
    } finally {
      sim.control.clearFaults();
      await page.close();
    }
  });

  it.each([
    ['github', { github: 'a-mistyped-token' }, /Cannot read the ladder: GitHub failed while reading .*\(HTTP 401\): Bad credentials/],
    ['argocd', { argocd: 'a-mistyped-token' }, /Health unknown: ArgoCD 'argocd' rejected the token .*set promotions\.argocd\.token/],
  ])("shows %s's refusal of a wrong token on the card, in the backend's words", async (upstream, tokens, message) => {
    const misconfigured = await startAdopterBackend(appDir, tools, sim, tokens);
    const token = await misconfigured.guestToken();
    // A new backend's catalog reads its files a moment after start-up.
    expect(
      await misconfigured.eventuallyOk('/api/catalog/entities/by-name/system/default/shop', token),
    ).toBe(200);
    const page = await openSystem(misconfigured, 'shop', 1280);
    try {
      await shownOrScreenshot(page, `adopter-create-app-wrong-${upstream}-token`, () =>
        page.getByTestId('ladder-card').getByText(message).first().waitFor({ timeout: 60_000 }),
      );
      expect(await page.getByTestId('ladder-card').textContent()).not.toMatch(/Something Went Wrong|is not a function/);
    } finally {
      await page.close();
      await misconfigured.stop();
    }
  });

  /** Waits for what `shown` waits for, and keeps a screenshot of the page either way. */
  async function shownOrScreenshot(page: Page, name: string, shown: () => Promise<unknown>) {
    try {
      await shown();
    } finally {
      await screenshot(page, name);
    }
  }
});

/**
 * Starts the app's backend as `yarn start` does, with this run's port and
 * the simulator as GitHub and ArgoCD in a config file of its own.
 */
async function startAdopterBackend(
  appDir: string,
  tools: AdopterTools,
  sim: RunningSim,
  /** Tokens other than the simulator's, as an adopter may mistype them. */
  tokens: { github?: string; argocd?: string } = {},
): Promise<RunningBackend> {
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const simHost = new URL(sim.url).host;
  const catalogFiles = ['products.yaml', 'org.yaml'].map(file => {
    const target = path.join(appDir, `examples/refplat-${file}`);
    fs.copyFileSync(path.resolve(__dirname, '../../../../examples', file), target);
    return target;
  });
  // create-app's guest, in the catalog as docs/install.md says, so it may request and approve.
  const guest = path.join(appDir, 'examples/refplat-guest.yaml');
  fs.writeFileSync(
    guest,
    stringify({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'User',
      metadata: { name: 'guest', namespace: 'development' },
      spec: { profile: { displayName: 'Guest Adopter' }, memberOf: ['default/alpha', 'default/release-approvers'] },
    }),
  );
  const configFile = path.join(appDir, `app-config.adopter-test-${port}.yaml`);
  fs.writeFileSync(
    configFile,
    stringify({
      app: { baseUrl },
      backend: { baseUrl, listen: { port }, cors: { origin: baseUrl } },
      integrations: {
        github: [
          { host: simHost, apiBaseUrl: sim.githubApiUrl, token: tokens.github ?? sim.tokens.github },
        ],
      },
      catalog: {
        locations: [...catalogFiles, guest].map(target => ({
          type: 'file',
          target,
          rules: [{ allow: ['System', 'Component', 'Group', 'User'] }],
        })),
      },
      promotions: {
        platformRepo: { host: simHost, owner: 'refplat', repo: 'platform' },
        argocd: { baseUrl: sim.argocdUrl, token: tokens.argocd ?? sim.tokens.argocd },
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
