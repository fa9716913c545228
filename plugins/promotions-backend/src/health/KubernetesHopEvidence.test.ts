import { mockServices } from '@backstage/backend-test-utils';
import type { ObservedApplication } from './HealthSource';
import { KubernetesHopApis, KubernetesHopEvidence } from './KubernetesHopEvidence';

const NAMESPACE = 'alpha-shop-dev';
const observed: ObservedApplication = {
  application: { metadata: { name: 'alpha-shop-dev', namespace: 'argocd' }, spec: { destination: { namespace: NAMESPACE } } },
  source: 'sim',
};

const owner = (kind: string, name: string) => ({ kind, name, uid: `uid-${name}` });
const meta = (name: string, owners: Array<ReturnType<typeof owner>> = [], extra: Record<string, unknown> = {}) => ({
  name,
  namespace: NAMESPACE,
  uid: `uid-${name}`,
  ownerReferences: owners,
  ...extra,
});

const rollout = {
  metadata: meta('storefront'),
  spec: {
    selector: { matchLabels: { app: 'storefront' } },
    strategy: { canary: { stableService: 'storefront-stable', canaryService: 'storefront-canary' } },
  },
  status: { currentPodHash: 'new' },
};
const replicaSets = [
  { metadata: meta('storefront-old', [owner('Rollout', 'storefront')], { creationTimestamp: new Date('2026-01-01T00:00:00Z') }) },
  { metadata: meta('storefront-new', [owner('Rollout', 'storefront')], { creationTimestamp: new Date('2025-01-01T00:00:00Z') }) },
];
const pods = [
  {
    metadata: meta('storefront-new-abcde', [owner('ReplicaSet', 'storefront-new')]),
    // client-node sends typed objects' times as Dates.
    status: { phase: 'Running', containerStatuses: [{ name: 'storefront', state: { running: { startedAt: new Date('2026-01-02T00:00:00Z') } } }] },
  },
  { metadata: meta('storefront-old-fghij', [owner('ReplicaSet', 'storefront-old')]) },
];
const policyReports = [
  { metadata: meta('report-new', [owner('ReplicaSet', 'storefront-new')]), results: [{ result: 'fail' }] },
  { metadata: meta('report-cart', [owner('ReplicaSet', 'cart-1')]), results: [{ result: 'fail' }] },
];
const analysisRuns = [
  { metadata: meta('storefront-new-3', [owner('Rollout', 'storefront')]) },
  { metadata: meta('storefront-old-2', [owner('Rollout', 'storefront')]) },
];
/** The route that carries storefront's traffic says so in its backendRefs, not in its name. */
const routeTo = (name: string, service: string) => ({
  metadata: meta(name),
  spec: { rules: [{ backendRefs: [{ name: service, port: 8080 }] }] },
});
const routes = [routeTo('shop-ingress', 'storefront-stable'), routeTo('storefront', 'cart-stable')];
const eventOf = (name: string) => ({
  involvedObject: { kind: 'Pod', name, uid: `uid-${name}` },
  reason: 'Unhealthy',
  lastTimestamp: new Date('2026-01-03T00:00:00Z'),
});

function apiError(code: number, message: string) {
  return Object.assign(new Error(`HTTP-Code: ${code}\nMessage: x\nBody: ...`), {
    code,
    body: JSON.stringify({ kind: 'Status', message }),
  });
}

/** A cluster whose lists answer from the objects above, and the calls it was asked. */
function fakeCluster(fail: Partial<Record<string, unknown>> = {}) {
  const calls: string[] = [];
  const answer = (what: string, items: unknown[], extra: Record<string, unknown> = {}) => {
    calls.push(what);
    if (fail[what]) return Promise.reject(fail[what]);
    return Promise.resolve({ metadata: {}, items, ...extra });
  };
  const custom: Record<string, unknown[]> = { policyreports: policyReports, analysisruns: analysisRuns, httproutes: routes };
  const apis = {
    custom: {
      getNamespacedCustomObject: ({ plural, name }: any) => {
        calls.push(`get ${plural}/${name}`);
        return fail.rollout ? Promise.reject(fail.rollout) : Promise.resolve(rollout);
      },
      listNamespacedCustomObject: ({ plural }: any) => answer(plural, custom[plural]),
    },
    apps: {
      listNamespacedReplicaSet: ({ labelSelector }: any) => answer(`replicasets ${labelSelector}`, replicaSets),
    },
    core: {
      listNamespacedPod: ({ labelSelector }: any) =>
        answer(`pods ${labelSelector}`, pods, fail.podsContinue ? { metadata: { _continue: 'next' } } : {}),
      listNamespacedEvent: ({ fieldSelector }: any) =>
        answer(`events ${fieldSelector}`, [eventOf(fieldSelector.replace('involvedObject.uid=uid-', ''))]),
    },
  } as unknown as KubernetesHopApis;
  return { apis, calls };
}

describe('KubernetesHopEvidence', () => {
  it("lists the service's objects once each and picks the rolling-out ReplicaSet's, as from ArgoCD's tree", async () => {
    const { apis, calls } = fakeCluster();
    const evidence = await new KubernetesHopEvidence().read(apis, observed, 'storefront');
    expect(calls.sort()).toEqual([
      'analysisruns',
      'events involvedObject.uid=uid-storefront-new',
      'events involvedObject.uid=uid-storefront-new-abcde',
      'get rollouts/storefront',
      'httproutes',
      'pods app=storefront',
      'policyreports',
      'replicasets app=storefront',
    ]);
    expect(evidence).toEqual({
      namespace: NAMESPACE,
      workload: 'storefront',
      events: [
        expect.objectContaining({ involvedObject: expect.objectContaining({ name: 'storefront-new' }) }),
        expect.objectContaining({ involvedObject: expect.objectContaining({ name: 'storefront-new-abcde' }), lastTimestamp: '2026-01-03T00:00:00.000Z' }),
      ],
      pods: [expect.objectContaining({ metadata: expect.objectContaining({ name: 'storefront-new-abcde' }) })],
      policyReports: [expect.objectContaining({ metadata: expect.objectContaining({ name: 'report-new' }) })],
      analysisRuns: [expect.objectContaining({ metadata: expect.objectContaining({ name: 'storefront-new-3' }) })],
      routes: [expect.objectContaining({ metadata: expect.objectContaining({ name: 'shop-ingress' }) })],
    });
    // The hop rules read times as the API sent them.
    expect(evidence.pods![0].status!.containerStatuses![0].state!.running!.startedAt).toBe('2026-01-02T00:00:00.000Z');
  });

  it("leaves out what an unreadable list decides, and logs why: the Pods' events and reports with the Pods", async () => {
    const logger = mockServices.logger.mock();
    const { apis } = fakeCluster({ 'pods app=storefront': apiError(403, 'pods is forbidden: User cannot list resource "pods"') });
    const evidence = await new KubernetesHopEvidence(logger).read(apis, observed, 'storefront');
    expect(evidence).toEqual({
      namespace: NAMESPACE,
      workload: 'storefront',
      events: undefined,
      pods: undefined,
      policyReports: undefined,
      analysisRuns: [expect.anything()],
      routes: [expect.anything()],
    });
    expect(logger.warn).toHaveBeenCalledWith(
      'Cannot read the Pods of storefront in alpha-shop-dev (cluster sim): HTTP 403: pods is forbidden: User cannot list resource "pods"',
    );
  });

  it('reads a list cut short by its limit as unread, not as the whole list', async () => {
    const logger = mockServices.logger.mock();
    const evidence = await new KubernetesHopEvidence(logger).read(fakeCluster({ podsContinue: true }).apis, observed, 'storefront');
    expect(evidence.pods).toBeUndefined();
    expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/^Cannot read the Pods of storefront .*: more than 500 in the namespace$/));
  });

  it('without the Rollout, reads nothing more', async () => {
    const logger = mockServices.logger.mock();
    const { apis, calls } = fakeCluster({ rollout: apiError(404, 'rollouts.argoproj.io "storefront" not found') });
    expect(await new KubernetesHopEvidence(logger).read(apis, observed, 'storefront')).toEqual({ namespace: NAMESPACE, workload: 'storefront' });
    expect(calls).toEqual(['get rollouts/storefront']);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('HTTP 404: rollouts.argoproj.io "storefront" not found'));
  });
});
