import { execFileSync } from 'node:child_process';
import {
  ArgocdVersion,
  PLATFORM_REPO_PLATFORM,
  PlatformShape,
  SEEDS_PLATFORM,
} from '../options';
import { renderRelease } from '../platform/releaseFile';
import { digestFor } from '../seed/digests';
import { seedDigest } from '../seed/seedData';
import { RunningSim } from '../sim';
import { customObjectsFor } from '../__testUtils__/kubernetesClient';
import {
  fileTestSim,
  getJson,
  octokitFor,
  waitFor,
} from '../__testUtils__/testSim';

/** This suite runs the simulator's first image naming (`team-service`); the others run the seeds'. */
const TEAM_SERVICE = { imageNaming: 'team-service' } as const;

const image = (team: string, service: string, digest: string) =>
  `registry.refplat.org/${team}/${service}@${digest}`;

/** The kustomize image override an ApplicationSet writes for a service. */
const injected = (team: string, service: string, digest: string) =>
  `registry.refplat.org/${team}/${service}=${image(team, service, digest)}`;

/** The override for a seeded version of a service. */
const injectedSeed = (
  team: string,
  product: string,
  service: string,
  version: number,
) => injected(team, service, seedDigest(team, product, service, version));

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
}

/**
 * A simulator whose loop never runs on its own: each reconcile pass is a test step.
 * One per shape for the test file: the describe blocks of a shape share it.
 */
function steppedSim(shape: PlatformShape): Promise<RunningSim> {
  return fileTestSim({
    ...shape,
    ...TEAM_SERVICE,
    reconcileIntervalMs: 3_600_000,
    syncDelayMs: 0,
  });
}

export function argocdShapesSuite(): void {
  describe('Argo CD Application shapes', () => {
    describe.each(['2', '3'] as ArgocdVersion[])(
      'Argo CD %s.x resource health',
      argocdVersion => {
        let sim: RunningSim;
        const get = (path: string) =>
          getJson(`${sim.argocdUrl}${path}`, sim.tokens.argocd);

        beforeAll(async () => {
          // The platform at rest, as seeded: for 3.x the stepped simulator of the seeds' shape
          // below, whose tests change it after these have read it.
          sim = await steppedSim({ ...SEEDS_PLATFORM, argocdVersion });
        });

        it('keeps resource health inline in 2.x and only in the resource tree from 3.0', async () => {
          const { body: app } = await get('/api/v1/applications/alpha-shop-prod');
          expect(app.status.health.status).toBe('Healthy');
          const rollouts = app.status.resources.filter(
            (r: any) => r.kind === 'Rollout',
          );
          expect(rollouts.map((r: any) => r.name)).toEqual([
            'cart',
            'checkout',
            'storefront',
          ]);
          const appTree = argocdVersion === '3';
          expect(app.status.resourceHealthSource).toBe(
            appTree ? 'appTree' : undefined,
          );
          expect(
            app.status.resources.filter((r: any) => 'health' in r),
          ).toHaveLength(appTree ? 0 : app.status.resources.length);
          expect(rollouts.map((r: any) => r.health)).toEqual(
            rollouts.map(() => (appTree ? undefined : { status: 'Healthy' })),
          );

          const { status, body: tree } = await get(
            '/api/v1/applications/alpha-shop-prod/resource-tree',
          );
          expect(status).toBe(200);
          const rolloutNodes = tree.nodes.filter((n: any) => n.kind === 'Rollout');
          expect(
            rolloutNodes.map((n: any) => [n.name, n.health.status]).sort(),
          ).toEqual([
            ['cart', 'Healthy'],
            ['checkout', 'Healthy'],
            ['storefront', 'Healthy'],
          ]);
          for (const node of tree.nodes) {
            expect(node).toMatchObject({
              uid: expect.any(String),
              resourceVersion: expect.stringMatching(/^\d+$/),
              createdAt: expect.any(String),
              health: { status: expect.any(String) },
            });
          }
          expect(tree.hosts).toHaveLength(1);

          const { body: version } = await get('/api/version');
          expect(version.Version).toMatch(new RegExp(`^v${argocdVersion}\\.`));
        });

        it('answers 400 InvalidArgument for a resource the Application does not have', async () => {
          const query = new URLSearchParams({
            namespace: 'alpha-shop-uat',
            resourceName: 'checkout',
            kind: 'Rollout',
            group: 'argoproj.io',
            version: 'v1alpha1',
          });
          const { status, body } = await get(
            `/api/v1/applications/alpha-shop-uat/resource?${query}`,
          );
          expect(status).toBe(400);
          expect(body).toEqual({
            error:
              'Rollout argoproj.io checkout not found as part of application alpha-shop-uat',
            code: 3,
            message:
              'Rollout argoproj.io checkout not found as part of application alpha-shop-uat',
          });
        });

        it('serves the same Application and the live Rollouts through the Kubernetes API', async () => {
          const customObjects = await customObjectsFor(sim);
          const cr = await customObjects.getNamespacedCustomObject({
            group: 'argoproj.io',
            version: 'v1alpha1',
            namespace: 'argocd',
            plural: 'applications',
            name: 'alpha-shop-prod',
          });
          const { body: app } = await get('/api/v1/applications/alpha-shop-prod');
          expect(cr.metadata.resourceVersion).toBe(app.metadata.resourceVersion);
          expect(cr.spec).toEqual(app.spec);
          expect(cr.status.resources).toEqual(app.status.resources);
          // Without inline health a client judges the live Rollout itself.
          const rollout = await customObjects.getNamespacedCustomObject({
            group: 'argoproj.io',
            version: 'v1alpha1',
            namespace: 'alpha-shop-prod',
            plural: 'rollouts',
            name: 'cart',
          });
          expect(rollout.status).toMatchObject({
            phase: 'Healthy',
            observedGeneration: String(rollout.metadata.generation),
            currentStepIndex: rollout.spec.strategy.canary.steps.length,
          });
          expect(rollout.spec.template.spec.containers[0].image).toBe(
            image('alpha', 'cart', seedDigest('alpha', 'shop', 'cart', 1)),
          );
        });
      },
    );

    describe('Applications syncing the app repo (the seeds)', () => {
      let sim: RunningSim;
      const get = (path: string) =>
        getJson(`${sim.argocdUrl}${path}`, sim.tokens.argocd);
      const getApp = async (name: string) =>
        (await get(`/api/v1/applications/${name}`)).body;

      beforeAll(async () => {
        sim = await steppedSim(SEEDS_PLATFORM);
      });

      it('keeps the workload shape in a real git repo per Product, with :placeholder images and no digest', async () => {
        const dir = sim.appRepoDir('alpha', 'shop');
        const files = git(dir, 'ls-tree', '-r', '--name-only', 'main').split('\n');
        expect(files).toEqual(
          expect.arrayContaining([
            'k8s/base/cart/kustomization.yaml',
            'k8s/base/cart/rollout.yaml',
            'k8s/base/cart/service.yaml',
            'k8s/overlays/dev/kustomization.yaml',
            'k8s/overlays/prod/kustomization.yaml',
          ]),
        );
        expect(git(dir, 'show', 'main:k8s/base/cart/rollout.yaml')).toContain(
          'image: registry.refplat.org/alpha/cart:placeholder',
        );
        const uat = git(dir, 'show', 'main:k8s/overlays/uat/kustomization.yaml');
        expect(uat).toContain('namespace: alpha-shop-uat');
        expect(uat).toContain('../../base/cart');
        expect(uat).not.toContain('checkout');
        for (const file of files)
          expect(git(dir, 'show', `main:${file}`)).not.toContain('sha256:');
      });

      it('points each Application at its overlay with the Release digests injected, at an app-repo commit', async () => {
        const app = await getApp('alpha-shop-prod');
        const head = git(sim.appRepoDir('alpha', 'shop'), 'rev-parse', 'main');
        expect(app.spec.source).toEqual({
          repoURL: `${sim.url}/web/alpha/shop-app.git`,
          path: 'k8s/overlays/prod',
          targetRevision: 'main',
          kustomize: {
            images: [
              injectedSeed('alpha', 'shop', 'cart', 1),
              injectedSeed('alpha', 'shop', 'checkout', 1),
              injectedSeed('alpha', 'shop', 'storefront', 2),
            ],
          },
        });
        expect(app.status.sync).toEqual({
          status: 'Synced',
          revision: head,
          comparedTo: {
            source: app.spec.source,
            destination: app.spec.destination,
          },
        });
        expect(app.status.sourceType).toBe('Kustomize');
        // History: one entry per Release change, each with the digests it injected.
        const images = app.status.history.map(
          (entry: any) => entry.source.kustomize.images,
        );
        expect(images[0]).toContain(injectedSeed('alpha', 'shop', 'storefront', 1));
        expect(images[images.length - 1]).toEqual(app.spec.source.kustomize.images);
        expect(
          app.status.history.every((entry: any) => entry.revision === head),
        ).toBe(true);
      });

      it('updates the spec when the Release changes; comparedTo follows on the next pass, then the sync', async () => {
        const before = await getApp('alpha-shop-dev');
        const other = await getApp('beta-payments-dev');
        const { digest } = await sim.control.ciPush({
          team: 'alpha',
          product: 'shop',
          service: 'cart',
        });
        const newImage = injected('alpha', 'cart', digest);

        await sim.control.reconcileNow(); // the ApplicationSet
        const specUpdated = await getApp('alpha-shop-dev');
        expect(specUpdated.spec.source.kustomize.images).toContain(newImage);
        expect(specUpdated.status.sync.comparedTo.source).toEqual(
          before.spec.source,
        );
        expect(specUpdated.status.sync.status).toBe('Synced');
        expect(specUpdated.metadata.resourceVersion).not.toBe(
          before.metadata.resourceVersion,
        );

        // The controller compares; a sync delay of 0 syncs in the same pass.
        await sim.control.reconcileNow();
        const compared = await getApp('alpha-shop-dev');
        expect(compared.status.sync.comparedTo.source).toEqual(
          compared.spec.source,
        );
        expect(compared.status.sync.revision).toBe(before.status.sync.revision);
        expect(compared.status.operationState.syncResult.source).toEqual(
          compared.spec.source,
        );
        expect(compared.status.summary.images).toEqual(
          expect.arrayContaining([image('alpha', 'cart', digest)]),
        );
        // Nothing about beta/payments changed, so neither did its Application.
        expect((await getApp('beta-payments-dev')).metadata.resourceVersion).toBe(
          other.metadata.resourceVersion,
        );
      });

      it('gives each Application its own resourceVersion, unchanged while nothing about it changes', async () => {
        // The canary the previous test started still steps on a busy machine, and
        // each step is a write; the claim is about Applications at rest.
        const list = await waitFor(async () => {
          await sim.control.reconcileNow();
          const { body } = await get('/api/v1/applications');
          const moving = body.items.some((app: any) =>
            ['Progressing', 'Suspended'].includes(app.status.health.status),
          );
          return moving ? undefined : { body };
        }, 120_000);
        const versions = list.body.items.map(
          (app: any) => app.metadata.resourceVersion,
        );
        expect(new Set(versions).size).toBe(versions.length);
        for (const version of versions)
          expect(Number(version)).toBeLessThanOrEqual(
            Number(list.body.metadata.resourceVersion),
          );
        await sim.control.reconcileNow();
        const again = await get('/api/v1/applications');
        expect(
          again.body.items.map((app: any) => app.metadata.resourceVersion),
        ).toEqual(versions);
        expect(again.body.items.map((app: any) => app.status.reconciledAt)).toEqual(
          list.body.items.map((app: any) => app.status.reconciledAt),
        );
      });

      it('serves the app repos through the GitHub API; a commit there moves the Applications to it', async () => {
        const octokit = octokitFor(sim);
        const repo = { owner: 'alpha', repo: 'shop-app' };
        const { data: meta } = await octokit.repos.get(repo);
        expect(meta).toMatchObject({
          full_name: 'alpha/shop-app',
          default_branch: 'main',
        });
        const { data: overlay } = (await octokit.repos.getContent({
          ...repo,
          path: 'k8s/overlays/dev/kustomization.yaml',
        })) as any;
        expect(Buffer.from(overlay.content, 'base64').toString('utf8')).toContain(
          'namespace: alpha-shop-dev',
        );

        const { data: put } = await octokit.repos.createOrUpdateFileContents({
          ...repo,
          path: 'README.md',
          message: 'docs: what lives here',
          content: Buffer.from('# shop workloads\n').toString('base64'),
        });
        await sim.control.reconcileNow();
        const app = await getApp('alpha-shop-staging');
        expect(app.status.sync).toMatchObject({
          status: 'Synced',
          revision: put.commit.sha,
        });
        // The Release did not change, so neither did the injected digests.
        expect(app.status.sync.comparedTo.source).toEqual(app.spec.source);
      });

      it('honours the test controls: a forced health is a write, a missing Application is hidden', async () => {
        const before = await getApp('beta-payments-uat');
        sim.control.setApp('beta-payments-uat', { health: 'Degraded' });
        const forced = await getApp('beta-payments-uat');
        expect(forced.status.health.status).toBe('Degraded');
        expect(Number(forced.metadata.resourceVersion)).toBeGreaterThan(
          Number(before.metadata.resourceVersion),
        );
        sim.control.setApp('beta-payments-uat', { clear: true, missing: true });
        expect((await get('/api/v1/applications/beta-payments-uat')).status).toBe(
          403,
        );
        sim.control.setApp('beta-payments-uat', { clear: true });
        expect((await getApp('beta-payments-uat')).status.health.status).toBe(
          'Healthy',
        );
      });

      it('creates the app repo overlay and an Application for a new Product', async () => {
        const key = { team: 'alpha', product: 'blog', stage: 'dev' };
        const digest = digestFor('alpha/blog/web:v1');
        await octokitFor(sim).repos.createOrUpdateFileContents({
          owner: 'refplat',
          repo: 'platform',
          path: 'gitops/releases/alpha/blog/dev.yaml',
          message: 'alpha/blog: first Release',
          content: Buffer.from(renderRelease(key, { web: digest })).toString(
            'base64',
          ),
        });
        const app = await waitFor(async () => {
          await sim.control.reconcileNow();
          const { status, body } = await get('/api/v1/applications/alpha-blog-dev');
          return status === 200 && body.status.sync.status === 'Synced'
            ? body
            : undefined;
        });
        const head = git(sim.appRepoDir('alpha', 'blog'), 'rev-parse', 'main');
        expect(app.status.sync.revision).toBe(head);
        expect(app.spec.source.kustomize.images).toEqual([
          injected('alpha', 'web', digest),
        ]);
        expect(app.status.summary.images).toEqual([image('alpha', 'web', digest)]);
      });
    });

    describe('multi-source Applications', () => {
      let sim: RunningSim;

      beforeAll(async () => {
        sim = await steppedSim({
          argocdVersion: '3',
          applicationSource: 'multi-source',
        });
      });

      it('lists the app repo and the platform repo as a ref source, with a revision each', async () => {
        const { body: app } = await getJson(
          `${sim.argocdUrl}/api/v1/applications/beta-payments-test`,
          sim.tokens.argocd,
        );
        expect(app.spec).not.toHaveProperty('source');
        expect(app.spec.sources).toEqual([
          {
            repoURL: `${sim.url}/web/beta/payments-app.git`,
            path: 'k8s/overlays/test',
            targetRevision: 'main',
            kustomize: {
              images: [
                injectedSeed('beta', 'payments', 'gateway', 2),
                injectedSeed('beta', 'payments', 'ledger', 2),
              ],
            },
          },
          {
            repoURL: `${sim.url}/web/refplat/platform.git`,
            targetRevision: 'main',
            ref: 'values',
          },
        ]);
        expect(app.status.sync).toEqual({
          status: 'Synced',
          revisions: [
            git(sim.appRepoDir('beta', 'payments'), 'rev-parse', 'main'),
            sim.control.getState().mainSha,
          ],
          comparedTo: {
            sources: app.spec.sources,
            destination: app.spec.destination,
          },
        });
        // The last sync was at the last commit that changed test's Release.
        const latest = app.status.history[app.status.history.length - 1];
        expect(latest.revisions).toEqual([
          app.status.sync.revisions[0],
          git(
            sim.repoDir,
            'log',
            '-1',
            '--format=%H',
            'main',
            '--',
            'gitops/releases/beta/payments/test.yaml',
          ),
        ]);
        expect(latest.sources).toEqual(app.spec.sources);
      });
    });

    describe('Applications syncing the platform repo', () => {
      let sim: RunningSim;

      beforeAll(async () => {
        sim = await steppedSim(PLATFORM_REPO_PLATFORM);
      });

      it('reads the Release file itself, compared on the pass that sees main move', async () => {
        const { digest, commit } = await sim.control.ciPush({
          team: 'beta',
          product: 'payments',
          service: 'ledger',
        });
        await sim.control.reconcileNow();
        const { body: app } = await getJson(
          `${sim.argocdUrl}/api/v1/applications/beta-payments-dev`,
          sim.tokens.argocd,
        );
        expect(app.spec.source).toEqual({
          repoURL: `${sim.url}/web/refplat/platform.git`,
          path: 'gitops/releases/beta/payments',
          targetRevision: 'main',
          directory: { include: 'dev.yaml' },
        });
        expect(app.status.sync.revision).toBe(commit);
        expect(app.status.summary.images).toEqual(
          expect.arrayContaining([image('beta', 'ledger', digest)]),
        );
      });
    });
  });
}
