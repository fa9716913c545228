import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { RunningSim } from '../sim';
import { loadKubernetesClient, postJson, startTestSim, stopTestSim, waitFor } from '../__testUtils__/testSim';
import { kubeConfigFor } from '../__testUtils__/kubernetesClient';

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

describe('Application events: Argo CD stream and Kubernetes watch', () => {
  let sim: RunningSim;

  beforeAll(async () => {
    sim = await startTestSim();
  });
  afterAll(() => stopTestSim(sim));
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
