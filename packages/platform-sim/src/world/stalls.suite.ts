import { RunningSim } from '../sim';
import { podTemplateHash } from './identifiers';
import { Stall } from './stalls/stall';
import { fileTestSim, getJson, postJson, waitFor } from '../__testUtils__/testSim';

/**
 * A build pushed with a stall flag rolls out in dev and stalls there as a real
 * cluster stalls it, read over HTTP as the backend reads it: Argo CD's resource
 * tree, its /resource manifests and ListResourceEvents, and Kubernetes' Events.
 * Each stall gets a service of Products of its own.
 */
export function stallsSuite(): void {
  describe('stalled rollouts', () => {
    let sim: RunningSim;
    const argo = async (path: string) => (await getJson(`${sim.argocdUrl}${path}`, sim.tokens.argocd)).body;
    const tree = async (app: string): Promise<any[]> => (await argo(`/api/v1/applications/${app}/resource-tree`)).nodes;
    const manifest = async (app: string, node: any) =>
      JSON.parse(
        (
          await argo(
            `/api/v1/applications/${app}/resource?${new URLSearchParams({
              namespace: node.namespace,
              resourceName: node.name,
              kind: node.kind,
              group: node.group,
              version: node.version,
            })}`,
          )
        ).manifest,
      );
    const eventsOf = async (app: string, node: any) =>
      argo(
        `/api/v1/applications/${app}/events?${new URLSearchParams({
          resourceNamespace: node.namespace,
          resourceName: node.name,
          resourceUID: node.uid,
        })}`,
      );

    /**
     * Pushes a build of alpha/`product`'s `service` that stalls as `stall`, and
     * waits until the dev tree passes `until` (given the tree and the canary's ReplicaSet name).
     */
    const pushStalled = async (
      product: string,
      service: string,
      stall: Stall,
      until: (nodes: any[], canaryRs: string) => boolean,
    ) => {
      const { digest } = await sim.control.ciPush({ team: 'alpha', product, service, stall });
      const app = `alpha-${product}-dev`;
      const canaryRs = `${service}-${podTemplateHash(digest)}`;
      const nodes: any[] = await waitFor(async () => {
        const current = await tree(app);
        return until(current, canaryRs) ? current : undefined;
      });
      const find = (kind: string, name: string) => nodes.find(n => n.kind === kind && n.name === name);
      const children = (parent: any, kind: string) =>
        nodes.filter(n => n.kind === kind && n.parentRefs?.some((p: any) => p.uid === parent.uid));
      return { app, digest, nodes, rollout: find('Rollout', service), replicaSet: find('ReplicaSet', canaryRs), find, children };
    };
    const rolloutHealth = (service: string) => (nodes: any[]) =>
      nodes.find(n => n.kind === 'Rollout' && n.name === service)?.health;

    beforeAll(async () => {
      sim = await fileTestSim();
      for (const product of ['stalls', 'stallsbis', 'stallster'])
        await sim.control.addProduct({ like: 'alpha/shop', product });
    });

    it('--denied-by-admission: no pods, FailedCreate from Kyverno, a failing PolicyReport under the ReplicaSet, Degraded at the progress deadline', async () => {
      const { app, digest, rollout, replicaSet, children } = await pushStalled(
        'stalls',
        'storefront',
        'deniedByAdmission',
        nodes => rolloutHealth('storefront')(nodes)?.status === 'Degraded',
      );
      expect(rollout.health.message).toBe(
        `ProgressDeadlineExceeded: ReplicaSet "${replicaSet.name}" has timed out progress.`,
      );
      expect(children(replicaSet, 'Pod')).toEqual([]);
      expect(replicaSet.health).toMatchObject({ status: 'Degraded' });

      const { items, metadata } = await eventsOf(app, replicaSet);
      expect(metadata.resourceVersion).toMatch(/^\d+$/);
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        metadata: { namespace: app, name: expect.stringMatching(new RegExp(`^${replicaSet.name}\\.[0-9a-f]+$`)) },
        involvedObject: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: replicaSet.name, namespace: app, uid: replicaSet.uid },
        type: 'Warning',
        reason: 'FailedCreate',
        count: expect.any(Number),
        firstTimestamp: expect.stringMatching(/Z$/),
        lastTimestamp: expect.stringMatching(/Z$/),
        source: { component: 'replicaset-controller' },
      });
      expect(items[0].message).toMatch(
        /^Error creating: admission webhook "mutate\.kyverno\.svc-fail" denied the request: \n\nresource Pod\/alpha-stalls-dev\/ was blocked due to the following policies \n\nverify-image:\n  check-signature: 'failed to verify image /,
      );
      expect(items[0].message).toContain(digest);

      const [reportNode] = children(replicaSet, 'PolicyReport');
      expect(reportNode).toMatchObject({ group: 'wgpolicyk8s.io', version: 'v1alpha2', name: replicaSet.uid });
      const report = await manifest(app, reportNode);
      expect(report.scope).toEqual({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: replicaSet.name, namespace: app, uid: replicaSet.uid });
      expect(report.summary.fail).toBe(1);
      expect(report.results).toEqual([
        expect.objectContaining({ policy: 'verify-image', rule: 'autogen-check-signature', result: 'fail', source: 'kyverno' }),
      ]);

      const live = await manifest(app, rollout);
      expect(live.status.conditions).toContainEqual(
        expect.objectContaining({ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }),
      );
      const state = sim.control.getState();
      expect(state.apps.find(a => a.name === app)?.healthStatus).toBe('Degraded');
      expect(state.stalledDigests[digest]).toBe('deniedByAdmission');
    });

    it('--quota-exceeded: no pods, FailedCreate naming the quota', async () => {
      const { app, replicaSet, children } = await pushStalled('stalls', 'cart', 'quotaExceeded', (nodes, rs) =>
        nodes.some(n => n.kind === 'ReplicaSet' && n.name === rs),
      );
      expect(children(replicaSet, 'Pod')).toEqual([]);
      const [event] = (await eventsOf(app, replicaSet)).items;
      expect(event.reason).toBe('FailedCreate');
      expect(event.message).toMatch(
        new RegExp(
          `^Error creating: pods "${replicaSet.name}-[a-z0-9]{5}" is forbidden: exceeded quota: compute-resources, requested: limits.cpu=2, used: limits.cpu=8, limited: limits.cpu=8$`,
        ),
      );
      expect((await manifest(app, replicaSet)).status).toMatchObject({
        replicas: 0,
        conditions: [expect.objectContaining({ type: 'ReplicaFailure', reason: 'FailedCreate' })],
      });
    });

    it('--unschedulable: the canary pod Pending, FailedScheduling from the scheduler', async () => {
      const { app, replicaSet, children } = await pushStalled('stalls', 'checkout', 'unschedulable', (nodes, rs) =>
        nodes.some(n => n.kind === 'ReplicaSet' && n.name === rs),
      );
      const [pod] = children(replicaSet, 'Pod');
      expect(pod.health.status).toBe('Progressing');
      expect((await manifest(app, pod)).status).toMatchObject({
        phase: 'Pending',
        conditions: [expect.objectContaining({ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' })],
      });
      expect((await eventsOf(app, pod)).items).toEqual([
        expect.objectContaining({
          reason: 'FailedScheduling',
          type: 'Warning',
          message:
            '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
          source: { component: 'default-scheduler' },
          involvedObject: expect.objectContaining({ kind: 'Pod', name: pod.name, uid: pod.uid }),
        }),
      ]);
    });

    it('--probe-failing: the canary pod Running but not Ready, Unhealthy readiness events, the probe path in its spec', async () => {
      const { app, replicaSet, children } = await pushStalled('stallsbis', 'storefront', 'probeFailing', (nodes, rs) =>
        nodes.some(n => n.kind === 'ReplicaSet' && n.name === rs),
      );
      const [pod] = children(replicaSet, 'Pod');
      const live = await manifest(app, pod);
      expect(live.spec.containers[0].readinessProbe.httpGet).toMatchObject({ path: '/healthz/ready', port: 'http' });
      expect(live.status.phase).toBe('Running');
      expect(live.status.conditions).toContainEqual(expect.objectContaining({ type: 'Ready', status: 'False' }));
      expect(live.status.containerStatuses[0]).toMatchObject({ ready: false, state: { running: expect.any(Object) } });
      const [event] = (await eventsOf(app, pod)).items;
      expect(event).toMatchObject({
        reason: 'Unhealthy',
        type: 'Warning',
        message: 'Readiness probe failed: HTTP probe failed with statuscode: 503',
        source: { component: 'kubelet', host: expect.any(String) },
        involvedObject: { fieldPath: 'spec.containers{storefront}' },
      });
    });

    it('--crash-loop: CrashLoopBackOff with a growing restart count and BackOff events, the pod Degraded', async () => {
      const { app, replicaSet, children } = await pushStalled('stallsbis', 'cart', 'crashLoop', (nodes, rs) =>
        nodes.some(
          n =>
            n.kind === 'Pod' &&
            n.name.startsWith(rs) &&
            Number(n.info.find((i: any) => i.name === 'Restart Count')?.value) >= 2,
        ),
      );
      const [pod] = children(replicaSet, 'Pod');
      expect(pod.health).toMatchObject({ status: 'Degraded', message: expect.stringMatching(/^back-off \d+[ms]/) });
      const status = (await manifest(app, pod)).status.containerStatuses[0];
      expect(status.restartCount).toBeGreaterThanOrEqual(2);
      expect(status.state.waiting.reason).toBe('CrashLoopBackOff');
      const [event] = (await eventsOf(app, pod)).items;
      expect(event.reason).toBe('BackOff');
      expect(event.message).toBe(`Back-off restarting failed container cart in pod ${pod.name}_${app}(${pod.uid})`);
      expect(event.count).toBeGreaterThanOrEqual(2);
      expect(Date.parse(event.lastTimestamp)).toBeGreaterThanOrEqual(Date.parse(event.firstTimestamp));
    });

    it('--slow-analysis: the canary paused with healthy pods while its AnalysisRun measures, then it completes', async () => {
      const { app, rollout, children } = await pushStalled('stallsbis', 'checkout', 'slowAnalysis', nodes =>
        nodes.some(
          n => n.kind === 'AnalysisRun' && n.name.startsWith('checkout-') && n.health.status === 'Progressing',
        ),
      );
      expect(rollout.health.status).toBe('Suspended');
      const [run] = children(rollout, 'AnalysisRun');
      const first = (await manifest(app, run)).status;
      expect(first.phase).toBe('Running');
      expect(first.metricResults[0]).toMatchObject({ name: 'success-rate', phase: 'Running' });
      expect(first.metricResults[0].measurements.every((m: any) => m.phase === 'Successful')).toBe(true);
      expect((await manifest(app, rollout)).status.canary.currentBackgroundAnalysisRunStatus).toEqual({
        name: run.name,
        status: 'Running',
      });
      const more = await waitFor(async () => {
        const status = (await manifest(app, run)).status;
        return status.metricResults[0].count > first.metricResults[0].count && status;
      });
      expect(more.metricResults[0].successful).toBe(more.metricResults[0].count);
      await waitFor(async () => rolloutHealth('checkout')(await tree(app))?.status === 'Healthy');
    });

    it('--route-not-accepted: the workload Healthy, its HTTPRoute refused by the Gateway and the Application Degraded', async () => {
      const { app, find } = await pushStalled('stallster', 'storefront', 'routeNotAccepted', nodes =>
        rolloutHealth('storefront')(nodes)?.status === 'Healthy' &&
        nodes.some(n => n.kind === 'HTTPRoute' && n.name === 'storefront' && n.health.status === 'Degraded'),
      );
      const route = find('HTTPRoute', 'storefront');
      expect(route).toMatchObject({ group: 'gateway.networking.k8s.io', version: 'v1', namespace: app });
      const live = await manifest(app, route);
      expect(live.spec.hostnames).toEqual(['stallster-alpha-dev.preprod.aws.refplat.org']);
      expect(live.status.parents[0].conditions).toEqual([
        expect.objectContaining({ type: 'Accepted', status: 'False', reason: 'NotAllowedByListeners' }),
        expect.objectContaining({ type: 'ResolvedRefs', status: 'True' }),
      ]);
      // The other services' routes are accepted.
      expect(find('HTTPRoute', 'cart').health).toEqual({ status: 'Healthy' });
      const application = await argo(`/api/v1/applications/${app}`);
      expect(application.status.health.status).toBe('Degraded');
      expect(application.status.resources).toContainEqual(
        expect.objectContaining({ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', name: 'storefront' }),
      );
    });

    it("ListResourceEvents: none for the Application itself, 400 for what is not in its tree; Kubernetes serves the same events", async () => {
      const app = 'alpha-stalls-dev';
      expect(await argo(`/api/v1/applications/${app}/events`)).toEqual({
        metadata: { resourceVersion: expect.any(String) },
        items: [],
      });
      const missing = await getJson(
        `${sim.argocdUrl}/api/v1/applications/${app}/events?resourceNamespace=${app}&resourceName=nowhere&resourceUID=x`,
        sim.tokens.argocd,
      );
      expect(missing.status).toBe(400);

      const k8s = (path: string) => getJson(`${sim.kubernetesUrl}${path}`, sim.tokens.kubernetes);
      const all = await k8s(`/api/v1/namespaces/${app}/events`);
      expect(all.body).toMatchObject({ kind: 'EventList', apiVersion: 'v1' });
      const reasons = all.body.items.map((e: any) => e.reason).sort();
      expect(reasons).toEqual(expect.arrayContaining(['FailedCreate', 'FailedScheduling']));
      const scheduling = all.body.items.find((e: any) => e.reason === 'FailedScheduling');
      const selected = await k8s(
        `/api/v1/namespaces/${app}/events?fieldSelector=${encodeURIComponent(
          `involvedObject.kind=Pod,involvedObject.uid=${scheduling.involvedObject.uid}`,
        )}`,
      );
      // The same event, read again: its count and resourceVersion may have moved on meanwhile (it repeats each canary step).
      expect(selected.body.items).toEqual([
        expect.objectContaining({
          metadata: expect.objectContaining({ name: scheduling.metadata.name, uid: scheduling.metadata.uid }),
          involvedObject: expect.objectContaining({ kind: 'Pod', uid: scheduling.involvedObject.uid }),
          reason: 'FailedScheduling',
          message: scheduling.message,
        }),
      ]);
      expect((await k8s('/api/v1/events?fieldSelector=spec.nodeName%3Dx')).status).toBe(400);
    });

    it('Kubernetes lists the Pods, ReplicaSets, PolicyReports and HTTPRoutes the tree shows, by label', async () => {
      const app = 'alpha-stalls-dev';
      const k8s = async (path: string) => (await getJson(`${sim.kubernetesUrl}${path}`, sim.tokens.kubernetes)).body;
      const names = (items: any[]) => items.map(item => item.metadata.name).sort();
      const ofKind = (nodes: any[], kind: string) => nodes.filter(n => n.kind === kind).map(n => n.name).sort();
      const nodes = await tree(app);
      const lists = {
        ReplicaSet: await k8s(`/apis/apps/v1/namespaces/${app}/replicasets`),
        PolicyReport: await k8s(`/apis/wgpolicyk8s.io/v1alpha2/namespaces/${app}/policyreports`),
        HTTPRoute: await k8s(`/apis/gateway.networking.k8s.io/v1/namespaces/${app}/httproutes`),
      };
      expect(lists.ReplicaSet).toMatchObject({ kind: 'ReplicaSetList', apiVersion: 'apps/v1', metadata: { resourceVersion: expect.stringMatching(/^\d+$/) } });
      expect(lists.PolicyReport).toMatchObject({ kind: 'PolicyReportList', apiVersion: 'wgpolicyk8s.io/v1alpha2' });
      expect(lists.HTTPRoute).toMatchObject({ kind: 'HTTPRouteList', apiVersion: 'gateway.networking.k8s.io/v1' });
      for (const [kind, list] of Object.entries(lists)) expect(names(list.items)).toEqual(ofKind(nodes, kind));
      // Kyverno's report on the refused canary, owned by its ReplicaSet.
      const [report] = lists.PolicyReport.items;
      expect(report.scope.kind).toBe('ReplicaSet');
      expect(report.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'ReplicaSet', name: report.scope.name })]);

      // The unschedulable canary's Pod, selected as its ReplicaSet selects it.
      const pendingPod = nodes.find(n => n.kind === 'Pod' && n.name.startsWith('checkout-') && n.health.status === 'Progressing');
      const canary = lists.ReplicaSet.items.find((rs: any) => rs.metadata.name === pendingPod.parentRefs[0].name);
      const selector = Object.entries(canary.spec.selector.matchLabels).map(([key, value]) => `${key}=${value}`).join(',');
      const pods = await k8s(`/api/v1/namespaces/${app}/pods?labelSelector=${encodeURIComponent(selector)}`);
      expect(pods).toMatchObject({ kind: 'PodList', apiVersion: 'v1' });
      expect(pods.items).toEqual([
        expect.objectContaining({
          metadata: expect.objectContaining({ ownerReferences: [expect.objectContaining({ kind: 'ReplicaSet', name: canary.metadata.name })] }),
          status: expect.objectContaining({ phase: 'Pending' }),
        }),
      ]);
      expect((await k8s(`/api/v1/namespaces/${app}/pods?labelSelector=app%3Dnowhere`)).items).toEqual([]);

      const groups = (await k8s('/apis')).groups.map((g: any) => g.name);
      expect(groups).toEqual(expect.arrayContaining(['argoproj.io', 'apps', 'wgpolicyk8s.io', 'gateway.networking.k8s.io']));
      expect((await k8s('/apis/wgpolicyk8s.io/v1alpha2')).resources).toEqual([
        expect.objectContaining({ name: 'policyreports', kind: 'PolicyReport', namespaced: true, verbs: ['list'] }),
      ]);
      expect((await k8s('/api/v1')).resources.map((r: any) => r.name)).toEqual(['events', 'pods']);
    });

    it('refuses a stall it does not know', async () => {
      const { status, body } = await postJson(`${sim.url}/_sim/ci/push`, {
        team: 'alpha',
        product: 'stalls',
        service: 'storefront',
        stall: 'meteorStrike',
      });
      expect(status).toBe(400);
      expect(body.error).toMatch(/^stall must be one of deniedByAdmission, /);
    });
  });
}
