import { RunningSim } from '../sim';
import { seedDigest } from '../seed/seedData';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { customObjectsFor, kubeConfigFor } from '../__testUtils__/kubernetesClient';
import { fileTestSim, getJson, loadKubernetesClient, postJson, waitFor } from '../__testUtils__/testSim';

/** Reads a newline-delimited JSON response as it arrives. */
async function openLines(url: string, token: string) {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  const lines: any[] = [];
  let ended = false;
  const reader = createInterface(Readable.fromWeb(response.body as any));
  reader.on('line', line => lines.push(JSON.parse(line)));
  reader.on('close', () => {
    ended = true;
  });
  reader.on('error', () => {
    ended = true;
  });
  return { response, lines, ended: () => ended, close: () => controller.abort() };
}

const SHOP = 'refplat.org/team=alpha,refplat.org/product=shop';

export function kubernetesSuite(): void {
  describe('the Kubernetes API through @kubernetes/client-node', () => {
    let sim: RunningSim;
    let customObjects: any;

    beforeAll(async () => {
      // The file's simulator with the default options. These tests count the seeded
      // Applications and Rollouts, so this suite runs first on it, before any Product is added.
      sim = await fileTestSim();
      customObjects = await customObjectsFor(sim);
    });

    it('lists Applications cluster-wide with a labelSelector', async () => {
      const list = await customObjects.listClusterCustomObject({
        group: 'argoproj.io',
        version: 'v1alpha1',
        plural: 'applications',
        labelSelector: 'refplat.org/team=alpha,refplat.org/product=shop',
      });
      expect(list.kind).toBe('ApplicationList');
      expect(list.metadata.resourceVersion).toBeTruthy();
      expect(list.items.map((app: any) => app.metadata.name)).toEqual([
        'alpha-shop-dev',
        'alpha-shop-prod',
        'alpha-shop-staging',
        'alpha-shop-test',
        'alpha-shop-uat',
      ]);
      const prod = list.items.find(
        (app: any) => app.metadata.name === 'alpha-shop-prod',
      );
      expect(prod.metadata.namespace).toBe('argocd');
      expect(prod.status.sync.status).toBe('Synced');
      expect(prod.status.health.status).toBe('Healthy');
    });

    it('lists namespaced Applications and gets a Rollout', async () => {
      const list = await customObjects.listNamespacedCustomObject({
        group: 'argoproj.io',
        version: 'v1alpha1',
        namespace: 'argocd',
        plural: 'applications',
        labelSelector: 'refplat.org/stage=prod',
      });
      expect(list.items.map((app: any) => app.metadata.name)).toEqual([
        'alpha-shop-prod',
        'beta-payments-prod',
      ]);

      const rollout = await customObjects.getNamespacedCustomObject({
        group: 'argoproj.io',
        version: 'v1alpha1',
        namespace: 'alpha-shop-prod',
        plural: 'rollouts',
        name: 'cart',
      });
      expect(rollout.kind).toBe('Rollout');
      expect(rollout.status.phase).toBe('Healthy');
      expect(String(rollout.status.observedGeneration)).toBe(
        String(rollout.metadata.generation),
      );
      expect(rollout.status.currentStepIndex).toBe(
        rollout.spec.strategy.canary.steps.length,
      );
      expect(rollout.spec.template.spec.containers[0].image).toBe(
        `registry.refplat.org/team-alpha/shop-cart@${seedDigest('alpha', 'shop', 'cart', 1)}`,
      );
    });

    it('answers a missing Rollout with a NotFound Status and a bad token with 401', async () => {
      const error = await customObjects
        .getNamespacedCustomObject({
          group: 'argoproj.io',
          version: 'v1alpha1',
          namespace: 'alpha-shop-prod',
          plural: 'rollouts',
          name: 'nope',
        })
        .catch((e: any) => e);
      expect(error.code).toBe(404);
      const missing = await getJson(
        `${sim.kubernetesUrl}/apis/argoproj.io/v1alpha1/namespaces/alpha-shop-prod/rollouts/nope`,
        sim.tokens.kubernetes,
      );
      expect(missing.body).toMatchObject({
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        reason: 'NotFound',
        code: 404,
      });
      const unauthorized = await getJson(
        `${sim.kubernetesUrl}/apis/argoproj.io/v1alpha1/rollouts`,
        'wrong',
      );
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.body).toMatchObject({
        kind: 'Status',
        reason: 'Unauthorized',
        code: 401,
      });
    });

    it('lists Rollouts cluster-wide', async () => {
      const list = await customObjects.listClusterCustomObject({
        group: 'argoproj.io',
        version: 'v1alpha1',
        plural: 'rollouts',
      });
      expect(list.kind).toBe('RolloutList');
      // alpha/shop: 3+3+2+3+3 services, beta/payments: 2 × 5 stages
      expect(list.items).toHaveLength(24);
    });

    describe('Application events: Argo CD stream and Kubernetes watch', () => {
      afterEach(() => sim.control.setApp('alpha-shop-test', { clear: true }));

      it('Argo CD streams ADDED for each Application, then MODIFIED when health changes', async () => {
        const stream = await openLines(
          `${sim.argocdUrl}/api/v1/stream/applications?selector=${encodeURIComponent(SHOP)}`,
          sim.tokens.argocd,
        );
        expect(stream.response.status).toBe(200);
        await waitFor(() => stream.lines.length >= 5);
        expect(stream.lines.slice(0, 5).map(l => [l.result.type, l.result.application.metadata.name])).toEqual([
          ['ADDED', 'alpha-shop-dev'],
          ['ADDED', 'alpha-shop-prod'],
          ['ADDED', 'alpha-shop-staging'],
          ['ADDED', 'alpha-shop-test'],
          ['ADDED', 'alpha-shop-uat'],
        ]);
        expect(await waitFor(() => sim.control.openStreams().argocd === 1)).toBe(true);

        sim.control.setApp('alpha-shop-test', { health: 'Degraded' });
        sim.control.setApp('beta-payments-test', { health: 'Degraded' });
        const modified = await waitFor(() =>
          stream.lines.find(l => l.result.type === 'MODIFIED' && l.result.application.status.health.status === 'Degraded'),
        );
        expect(modified.result.application.metadata.name).toBe('alpha-shop-test');
        // the selector keeps other Products' events out
        expect(stream.lines.some(l => l.result.application.metadata.name.startsWith('beta'))).toBe(false);
        sim.control.setApp('beta-payments-test', { clear: true });

        stream.close();
        expect(await waitFor(() => sim.control.openStreams().argocd === 0)).toBe(true);
      });

      it('Argo CD resumed from a resourceVersion sends no ADDED; a dropped stream ends', async () => {
        const stream = await openLines(
          `${sim.argocdUrl}/api/v1/stream/applications?selector=${encodeURIComponent(SHOP)}&resourceVersion=1`,
          sim.tokens.argocd,
        );
        await waitFor(() => sim.control.openStreams().argocd === 1);
        sim.control.setApp('alpha-shop-test', { sync: 'OutOfSync' });
        await waitFor(() => stream.lines.length > 0);
        expect(stream.lines[0].result.type).toBe('MODIFIED');
        expect((await postJson(`${sim.url}/_sim/streams/drop`, {})).body).toEqual({ dropped: 1 });
        expect(await waitFor(() => stream.ended())).toBe(true);
      });

      it('a Kubernetes watch (client-node Watch) from a list resourceVersion sees the change; a too old one gets 410', async () => {
        const k8s = await loadKubernetesClient();
        const kubeConfig = await kubeConfigFor(sim);
        const path = '/apis/argoproj.io/v1alpha1/namespaces/argocd/applications';
        const list = await (await fetch(`${sim.kubernetesUrl}${path}?labelSelector=${encodeURIComponent(SHOP)}`, {
          headers: { authorization: `Bearer ${sim.tokens.kubernetes}` },
        })).json();
        const events: Array<[string, any]> = [];
        const watch = await new k8s.Watch(kubeConfig).watch(
          path,
          { labelSelector: SHOP, resourceVersion: list.metadata.resourceVersion },
          (type: string, object: any) => events.push([type, object]),
          () => undefined,
        );
        await waitFor(() => sim.control.openStreams().kubernetes === 1);
        sim.control.setApp('alpha-shop-test', { health: 'Degraded' });
        const [type, object] = await waitFor(() => events.find(([, o]) => o.status?.health?.status === 'Degraded'));
        expect(type).toBe('MODIFIED');
        expect(object.metadata.name).toBe('alpha-shop-test');
        expect(Number(object.metadata.resourceVersion)).toBeGreaterThan(Number(list.metadata.resourceVersion));
        watch.abort();

        // Push the kept history past the list's resourceVersion: the watch must list again.
        for (let i = 0; i < 150; i++) {
          sim.control.setApp('alpha-shop-test', { health: i % 2 ? 'Healthy' : 'Degraded' });
        }
        const gone = await new Promise<any>(resolve => {
          const seen: any[] = [];
          void new k8s.Watch(kubeConfig).watch(
            path,
            { resourceVersion: list.metadata.resourceVersion },
            (t: string, o: any) => seen.push([t, o]),
            () => resolve(seen),
          );
        });
        expect(gone).toEqual([['ERROR', expect.objectContaining({ kind: 'Status', code: 410, reason: 'Expired' })]]);
      });
    });
  });
}
