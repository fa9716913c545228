import { RunningSim } from '../sim';
import { seedDigest } from '../seed/seedData';
import { PLATFORM_REPO_PLATFORM } from '../options';
import { fileTestSim, getJson, OBSERVABLE_SYNC } from '../__testUtils__/testSim';

export function argocdSuite(): void {
  describe('the Argo CD API', () => {
    let sim: RunningSim;
    const get = (path: string, token: string = sim.tokens.argocd) =>
      getJson(`${sim.argocdUrl}${path}`, token);

    beforeAll(async () => {
      // ArgoCD 2.14 with Applications syncing the platform repo; argocdShapes.suite.ts covers the rest.
      // The reconcile loop's simulator of that shape (its sync delay changes nothing read here):
      // these tests read the seeded platform, so they run before the reconcile suite changes it.
      sim = await fileTestSim({ ...PLATFORM_REPO_PLATFORM, ...OBSERVABLE_SYNC });
    });

    it('answers 401 without a token, like Argo CD without a session', async () => {
      const { status, body } = await get('/api/v1/applications', '');
      expect(status).toBe(401);
      expect(body).toEqual({
        error: 'no session information',
        code: 16,
        message: 'no session information',
      });
    });

    it("serves an Application's UI page without a token, where the ladder links it", async () => {
      const page = await fetch(`${sim.argocdUrl}/applications/argocd/beta-payments-dev`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await page.text();
      expect(html).toContain('<h1>Application beta-payments-dev</h1>');
      expect(html).toContain('Health: <b data-testid="health">Healthy</b>');
      expect(html).toContain('Sync: <b data-testid="sync">Synced</b>');
      expect(html).toContain(
        `registry.refplat.org/team-beta/payments-ledger@${seedDigest('beta', 'payments', 'ledger', 2)}`,
      );
      expect(html).toMatch(/<td>gateway<\/td><td>Healthy<\/td><td>done<\/td><td>0%<\/td>/);
      expect((await fetch(`${sim.argocdUrl}/applications/argocd/beta-payments-nowhere`)).status).toBe(404);
    });

    it('lists Applications, filtered by label selector, name and project', async () => {
      const all = await get('/api/v1/applications');
      expect(all.status).toBe(200);
      expect(all.body.metadata.resourceVersion).toBeTruthy();
      expect(all.body.items).toHaveLength(10);

      const shop = await get(
        `/api/v1/applications?selector=${encodeURIComponent('refplat.org/product=shop,refplat.org/stage in (dev,prod)')}`,
      );
      expect(shop.body.items.map((app: any) => app.metadata.name)).toEqual([
        'alpha-shop-dev',
        'alpha-shop-prod',
      ]);
      const byName = await get('/api/v1/applications?name=beta-payments-uat');
      expect(byName.body.items.map((app: any) => app.metadata.name)).toEqual([
        'beta-payments-uat',
      ]);
      const byProject = await get('/api/v1/applications?projects=beta');
      expect(byProject.body.items).toHaveLength(5);
    });

    it('gets an Application with the seeded digests running, Synced and Healthy', async () => {
      const { status, body: app } = await get(
        '/api/v1/applications/alpha-shop-prod',
      );
      expect(status).toBe(200);
      expect(app.metadata).toMatchObject({
        name: 'alpha-shop-prod',
        namespace: 'argocd',
        labels: {
          'refplat.org/team': 'alpha',
          'refplat.org/product': 'shop',
          'refplat.org/stage': 'prod',
        },
      });
      expect(app.spec.destination.namespace).toBe('alpha-shop-prod');
      expect(app.spec.source).toMatchObject({
        path: 'gitops/releases/alpha/shop',
        targetRevision: 'main',
      });
      expect(app.status.sync.status).toBe('Synced');
      expect(app.status.sync.revision).toBe(sim.control.getState().mainSha);
      expect(app.status.health.status).toBe('Healthy');
      expect(app.status.resourceHealthSource).toBeUndefined();
      expect(app.status.operationState).toMatchObject({
        phase: 'Succeeded',
        syncResult: { revision: expect.stringMatching(/^[0-9a-f]{40}$/) },
      });
      expect(app.status.history.length).toBeGreaterThan(0);
      expect(app.status.summary.images).toEqual([
        `registry.refplat.org/team-alpha/shop-cart@${seedDigest('alpha', 'shop', 'cart', 1)}`,
        `registry.refplat.org/team-alpha/shop-checkout@${seedDigest('alpha', 'shop', 'checkout', 1)}`,
        `registry.refplat.org/team-alpha/shop-storefront@${seedDigest('alpha', 'shop', 'storefront', 2)}`,
      ]);
      const rollouts = app.status.resources.filter(
        (r: any) => r.kind === 'Rollout',
      );
      expect(
        rollouts.map((r: any) => [
          r.name,
          r.group,
          r.version,
          r.status,
          r.health.status,
        ]),
      ).toEqual([
        ['cart', 'argoproj.io', 'v1alpha1', 'Synced', 'Healthy'],
        ['checkout', 'argoproj.io', 'v1alpha1', 'Synced', 'Healthy'],
        ['storefront', 'argoproj.io', 'v1alpha1', 'Synced', 'Healthy'],
      ]);
      expect(
        app.status.resources.filter((r: any) => r.kind === 'Service'),
      ).toHaveLength(3);
    });

    it('has no checkout in uat, because uat does not declare it', async () => {
      const { body: app } = await get('/api/v1/applications/alpha-shop-uat');
      expect(
        app.status.resources
          .filter((r: any) => r.kind === 'Rollout')
          .map((r: any) => r.name),
      ).toEqual(['cart', 'storefront']);
    });

    it('answers 403 permission denied for a missing Application, as Argo CD does', async () => {
      const { status, body } = await get(
        '/api/v1/applications/alpha-shop-nowhere',
      );
      expect(status).toBe(403);
      expect(body).toEqual({
        error: 'permission denied',
        code: 7,
        message: 'permission denied',
      });
    });

    it('serves the resource tree: Rollout → ReplicaSet → Pods, and Services', async () => {
      const { status, body } = await get(
        '/api/v1/applications/beta-payments-dev/resource-tree',
      );
      expect(status).toBe(200);
      const kinds = body.nodes.map((node: any) => node.kind);
      expect(kinds.filter((k: string) => k === 'Rollout')).toHaveLength(2);
      expect(kinds.filter((k: string) => k === 'Service')).toHaveLength(2);
      const rollout = body.nodes.find(
        (n: any) => n.kind === 'Rollout' && n.name === 'ledger',
      );
      expect(rollout).toMatchObject({
        group: 'argoproj.io',
        version: 'v1alpha1',
        namespace: 'beta-payments-dev',
        health: { status: 'Healthy' },
      });
      const replicaSet = body.nodes.find(
        (n: any) =>
          n.kind === 'ReplicaSet' && n.parentRefs[0].uid === rollout.uid,
      );
      const pods = body.nodes.filter(
        (n: any) => n.kind === 'Pod' && n.parentRefs[0].uid === replicaSet.uid,
      );
      expect(pods.length).toBeGreaterThan(0);
      expect(pods[0].images).toEqual([
        `registry.refplat.org/team-beta/payments-ledger@${seedDigest('beta', 'payments', 'ledger', 2)}`,
      ]);
    });

    it('serves a live resource manifest as JSON text', async () => {
      const query = new URLSearchParams({
        namespace: 'beta-payments-prod',
        resourceName: 'gateway',
        version: 'v1alpha1',
        kind: 'Rollout',
        group: 'argoproj.io',
      });
      const { status, body } = await get(
        `/api/v1/applications/beta-payments-prod/resource?${query}`,
      );
      expect(status).toBe(200);
      expect(typeof body.manifest).toBe('string');
      const rollout = JSON.parse(body.manifest);
      expect(rollout).toMatchObject({
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'Rollout',
        metadata: { name: 'gateway', namespace: 'beta-payments-prod' },
      });
      expect(rollout.spec.strategy.canary.steps).toEqual([
        { setWeight: 10 },
        { pause: { duration: '200ms' } },
        { setWeight: 25 },
        { pause: { duration: '200ms' } },
        { setWeight: 50 },
        { pause: { duration: '200ms' } },
      ]);
      expect(rollout.status).toMatchObject({
        phase: 'Healthy',
        currentStepIndex: 6,
        observedGeneration: String(rollout.metadata.generation),
      });
      expect(rollout.status.stableRS).toBe(rollout.status.currentPodHash);

      const missing = await get(
        `/api/v1/applications/beta-payments-prod/resource?${new URLSearchParams({ namespace: 'beta-payments-prod', resourceName: 'nope', kind: 'Rollout', group: 'argoproj.io', version: 'v1alpha1' })}`,
      );
      // Argo CD answers gRPC InvalidArgument (400), not 404, for a resource the Application does not have.
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({
        error:
          'Rollout argoproj.io nope not found as part of application beta-payments-prod',
        code: 3,
        message:
          'Rollout argoproj.io nope not found as part of application beta-payments-prod',
      });
    });
  });
}
