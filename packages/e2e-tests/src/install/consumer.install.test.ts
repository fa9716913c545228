import fs from 'fs';
import path from 'path';
import { RunningSim, startPlatformSim } from '@refplat/platform-sim';
import { launchBrowser, screenshot } from '../__testUtils__/browser';
import { installScratchDir } from '../__testUtils__/installScratchDir';
import {
  buildApp,
  npmStepsEnv,
  startConsumerBackend,
  writeConsumer,
} from './__testUtils__/consumer';
import { installConsumerDependencies } from './__testUtils__/installedConsumer';
import { addBackendStep, runShellSteps } from './__testUtils__/readmeSteps';
import { buildAndPack, tarballFile, tarballFiles, tarballManifest } from './__testUtils__/tarballs';

// Packing, a clean install where the machine keeps none (better-sqlite3
// compiles) and a backend start on a loaded 2-core machine.
jest.setTimeout(20 * 60_000);

const STAGES = ['dev', 'test', 'uat', 'staging', 'prod'];
const NOT_CONFIGURED =
  /^promotions is not configured: set promotions\.platformRepo/;

/** What a tarball may hold besides dist/: nothing a consumer does not need. */
const ALLOWED =
  /^(dist\/.+|migrations\/[^/]+\.js|config\.schema\.json|README\.md|CHANGELOG\.md|package\.json|report(-alpha)?\.api\.md)$/;

/** The relative links of a README (`[text](target)`), without anchors. */
function relativeLinks(readme: string): string[] {
  return [...readme.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)]
    .map(match => match[1])
    .filter(target => !/^[a-z]+:/i.test(target));
}

describe('the packed plugins in a clean Backstage outside this repository', () => {
  const work = installScratchDir('promotions-consumer-');
  const consumer = path.join(work, 'backstage');
  let tarballs: string[];
  let sim: RunningSim;

  beforeAll(async () => {
    const tarballDir = path.join(work, 'tarballs');
    tarballs = buildAndPack(tarballDir);
    writeConsumer(consumer);
    // An adopter's Backstage has its dependencies installed before it adds the plugins.
    installConsumerDependencies(consumer);
    // The README's npm steps and its backend line, as written there.
    runShellSteps('npm', consumer, tarballDir, npmStepsEnv(consumer));
    addBackendStep(path.join(consumer, 'packages/backend/src/index.js'));
    buildApp(consumer);
    sim = await startPlatformSim();
  });

  afterAll(async () => {
    await sim?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('packs only dist, the migrations, the config schema, README, CHANGELOG and package.json', () => {
    for (const tarball of tarballs) {
      const files = tarballFiles(tarball);
      expect(files.filter(file => !ALLOWED.test(file))).toEqual([]);
      expect(files).toEqual(
        expect.arrayContaining(['README.md', 'CHANGELOG.md', 'package.json']),
      );
    }
  });

  it("links from each README only to files in its tarball (or the repository's, by URL)", () => {
    for (const tarball of tarballs) {
      const files = new Set(tarballFiles(tarball));
      const readme = tarballFile(tarball, 'README.md');
      const missing = relativeLinks(readme).filter(target => !files.has(target.replace(/^\.\//, '')));
      expect({ tarball: path.basename(tarball), missing }).toEqual({ tarball: path.basename(tarball), missing: [] });
    }
  });

  it('points every entry point at a file in the tarball', () => {
    for (const tarball of tarballs) {
      const manifest = tarballManifest(tarball);
      const files = new Set(tarballFiles(tarball));
      expect(manifest.private).toBeUndefined();
      const targets = [
        manifest.main,
        manifest.types,
        ...Object.values(manifest.exports).flatMap(entry =>
          typeof entry === 'string' ? [entry] : Object.values(entry as object),
        ),
      ];
      for (const target of targets.filter(
        t => t.startsWith('./dist') || t.startsWith('dist'),
      )) {
        expect(files).toContain(target.replace(/^\.\//, ''));
      }
    }
    expect(tarballManifest(tarballs[3]).backstage.features).toEqual({
      './alpha': '@backstage/FrontendPlugin',
    });
  });

  it("ships manifests without this repository's test wiring or private packages", () => {
    const published = new Set(tarballs.map(tarball => tarballManifest(tarball).name));
    for (const tarball of tarballs) {
      const manifest = tarballManifest(tarball);
      expect(manifest.jest).toBeUndefined();
      const unpublished = Object.keys({
        ...manifest.dependencies,
        ...manifest.devDependencies,
      }).filter(name => name.startsWith('@refplat/') && !published.has(name));
      expect({ name: manifest.name, unpublished }).toEqual({ name: manifest.name, unpublished: [] });
    }
  });

  it('installs from the tarballs alone: real copies, no resolutions, no links', () => {
    const manifest = JSON.parse(
      fs.readFileSync(path.join(consumer, 'package.json'), 'utf8'),
    );
    expect(manifest.resolutions).toBeUndefined();
    expect(manifest.overrides).toBeUndefined();
    for (const name of [
      'plugin-promotions-common',
      'plugin-promotions-node',
      'plugin-promotions-backend',
      'plugin-promotions',
    ]) {
      const installed = path.join(consumer, 'node_modules/@refplat', name);
      expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false);
    }
  });

  it('loads the backend and common entry points under plain node', () => {
    const loaded = require('child_process').execFileSync(
      'node',
      [
        '-e',
        `const b = require('@refplat/plugin-promotions-backend');
         const c = require('@refplat/plugin-promotions-common');
         console.log(b.default.$$type, typeof c.planPromotion);`,
      ],
      { cwd: path.join(consumer, 'packages/backend'), encoding: 'utf8' },
    );
    expect(loaded.trim()).toBe('@backstage/BackendFeature function');
  });

  it('boots without promotions config: one warning, 503 with the reason, the rest of Backstage unaffected', async () => {
    const backend = await startConsumerBackend(consumer, {});
    try {
      const token = await backend.guestToken();
      const headers = { authorization: `Bearer ${token}` };
      const ladder = await fetch(
        `${backend.baseUrl}/api/promotions/products/alpha/shop/ladder`,
        { headers },
      );
      expect(ladder.status).toBe(503);
      expect((await ladder.json()).error.message).toMatch(NOT_CONFIGURED);
      // The catalog ingests examples/products.yaml a moment after start-up.
      expect(
        await backend.eventuallyOk(
          '/api/catalog/entities/by-name/system/default/shop',
          token,
        ),
      ).toBe(200);
      // One start-up warning (the 503s themselves are logged per request).
      expect(
        backend.log().match(/Until then its routes answer 503/g),
      ).toHaveLength(1);
    } finally {
      await backend.stop();
    }
  });

  it('boots with the tarball plugin and answers the ladder against the simulator', async () => {
    const simHost = new URL(sim.url).host;
    const backend = await startConsumerBackend(consumer, {
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
        platformRepo: { host: simHost, owner: 'refplat', repo: 'platform' },
        argocd: { baseUrl: sim.argocdUrl, token: sim.tokens.argocd },
      },
    });
    try {
      const token = await backend.guestToken();
      const response = await fetch(
        `${backend.baseUrl}/api/promotions/products/alpha/shop/ladder`,
        {
          headers: { authorization: `Bearer ${token}` },
        },
      );
      expect(response.status).toBe(200);
      const ladder = await response.json();
      expect(
        ladder.stages.map((stage: { name: string }) => stage.name),
      ).toEqual(STAGES);
      expect(ladder.stages[0].services.storefront.digest).toMatch(
        /^sha256:[0-9a-f]{64}$/,
      );
      expect(backend.log()).not.toMatch(/auto-promoter/i);
    } finally {
      await backend.stop();
    }
  });

  it('shows the ladder card on the shop System page of a new-frontend-system app, found by feature discovery', async () => {
    const simHost = new URL(sim.url).host;
    const backend = await startConsumerBackend(consumer, {
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
        platformRepo: { host: simHost, owner: 'refplat', repo: 'platform' },
        argocd: { baseUrl: sim.argocdUrl, token: sim.tokens.argocd },
      },
    });
    const browser = await launchBrowser();
    try {
      const token = await backend.guestToken();
      expect(
        await backend.eventuallyOk(
          '/api/catalog/entities/by-name/system/default/shop',
          token,
        ),
      ).toBe(200);
      const page = await browser.newPage({
        viewport: { width: 1600, height: 1100 },
      });
      await page.goto(`${backend.baseUrl}/catalog/default/system/shop`);
      await page.getByRole('button', { name: /enter/i }).click();
      await page.getByTestId('ladder-card').waitFor({ timeout: 60_000 });
      for (const stage of STAGES) {
        await page.getByTestId(`stage-${stage}`).waitFor({ timeout: 60_000 });
      }
      await screenshot(page, 'consumer-new-frontend-system-shop');
    } finally {
      await browser.close();
      await backend.stop();
    }
  });
});
