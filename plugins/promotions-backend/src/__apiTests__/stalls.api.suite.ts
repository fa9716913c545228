import { mockCredentials } from '@backstage/backend-test-utils';
import { ARGOCD_VERSIONS, type ArgocdVersion, type RunningSim } from '@refplat/platform-sim';
import type { HopReading, Ladder, LadderServiceCell } from '@refplat/plugin-promotions-common';
import request from 'supertest';
import { sharedSimBackend, SharedSimBackend, TestProduct } from '../__testUtils__/sharedSimBackend';
import { eventually } from '../__testUtils__/testBackend';

const bob = mockCredentials.user.header('user:default/bob');

/** The simulator's stalls (`sim:push --<stall>`), as its `/_sim/ci/push` names them. */
type Stall =
  | 'deniedByAdmission'
  | 'unschedulable'
  | 'quotaExceeded'
  | 'probeFailing'
  | 'crashLoop'
  | 'slowAnalysis'
  | 'routeNotAccepted';

/** An Argo CD read of the hop evidence: ListResourceEvents, or a manifest of a Pod, PolicyReport, AnalysisRun or HTTPRoute. */
const EVIDENCE_READ = /\/events$|kind=(Pod|PolicyReport|AnalysisRun|HTTPRoute)(&|$)/;

/** The simulator the stalls play on (1 s canary steps: a slow analysis measures for 15 s), one per Argo CD version. */
function stallsSim(argocdVersion: ArgocdVersion) {
  return { canaryStepMs: 1000, syncDelayMs: 200, reconcileIntervalMs: 100, argocdVersion };
}

/** How a test reads a stall on the ladder of `shared`'s backend, whichever health source it reads. */
function stallReadings(shared: SharedSimBackend) {
  async function cell(product: TestProduct, stage: string, service: string): Promise<LadderServiceCell> {
    const response = await request(shared.server).get(`/api/promotions/products/${product.ref}/ladder`).set('Authorization', bob);
    expect(response.status).toBe(200);
    return (response.body as Ladder).stages.find(s => s.name === stage)!.services[service];
  }

  /**
   * Pushes a build of `service` that stalls as `stall`, and waits until dev's cell shows `hop`
   * marked `mark` and, for a stalled hop, the diagnosis names it (`hop-stalled`): the hop's
   * evidence can be read while the sync after the merge is still what the diagnosis names first.
   * `shows`, when given, waits too for evidence that matches it: the canary's state comes from the
   * health stream and the hop's evidence from a fresh read, so one view can hold an AnalysisRun
   * already measuring beside a Rollout not yet seen paused.
   */
  async function stalledAt(
    service: string,
    stall: Stall,
    hop: HopReading['hop'],
    mark: HopReading['mark'] = 'stalled',
    shows?: RegExp,
  ) {
    const code = mark === 'stalled' ? 'hop-stalled' : undefined;
    const product = await shared.addProduct('alpha/shop');
    await shared.sim.control.ciPush({ team: 'alpha', product: product.product, service, stall });
    const found = await eventually(async () => {
      const diagnosis = (await cell(product, 'dev', service)).diagnosis;
      const reading = diagnosis?.hops?.find(
        h => h.hop === hop && h.mark === mark && (!shows || shows.test(h.evidence ?? '')),
      );
      return reading && diagnosis && (!code || diagnosis.code === code) ? { diagnosis, reading } : undefined;
    }, 60_000);
    return { ...found, product, app: product.app('dev') };
  }

  return { cell, stalledAt };
}

/**
 * Issue 47: each stall the simulator plays, read where it happens and shown on the ladder: the
 * hop that stalled, its evidence in one line, when it was seen and where to look. On the
 * simulator diagnosis shares (1 s canary steps: a slow analysis measures for 15 s), each test
 * stalling a Product of its own in dev.
 */
export function stallsSuite(): void {
  describe.each(ARGOCD_VERSIONS)('stalls read where they happen (Argo CD %s)', argocdVersion => {
    const shared = sharedSimBackend({ sim: stallsSim(argocdVersion) });
    const { cell, stalledAt } = stallReadings(shared);
    let sim: RunningSim;

    beforeAll(() => {
      ({ sim } = shared);
    });

    it('--denied-by-admission: the admission hop names the Kyverno policy, and the ReplicaSet to describe', async () => {
      const { diagnosis, reading, app } = await stalledAt('storefront', 'deniedByAdmission', 'admission');
      expect(reading.evidence).toMatch(/^Kyverno policy verify-image\/check-signature denied the Pod: failed to verify image /);
      expect(reading.seenAt).toMatch(/Z$/);
      expect(reading.lookAt).toEqual({
        kind: 'kubectl',
        text: expect.stringMatching(new RegExp(`^kubectl -n ${app} describe replicaset storefront-[a-z0-9]+$`)),
      });
      expect(diagnosis).toMatchObject({ code: 'hop-stalled', state: 'stuck', likelyCause: reading.evidence });
      expect(diagnosis.hops!.map(h => h.mark).slice(2)).toEqual(Array(5).fill('not-reached'));
    });

    it('a stalled view costs a few Argo CD reads: the tree, the Rollout, one object\'s events and two manifests', async () => {
      const { product, app } = await stalledAt('storefront', 'deniedByAdmission', 'admission');
      sim.control.clearRequests();
      expect((await cell(product, 'dev', 'storefront')).diagnosis?.code).toBe('hop-stalled');
      const ofApp = sim.control.getRequests('argocd').filter(call => call.path.startsWith(`/api/v1/applications/${app}/`));
      const calls = ofApp.map(call => `${call.path.slice(`/api/v1/applications/${app}/`.length)} ${new URLSearchParams(call.query).get('kind') ?? ''}`.trim());
      // The ladder's own Rollout reads (one per service not healthy) come on top.
      expect(calls.filter(call => call === 'events')).toHaveLength(1);
      // The evidence's own tree read; on Argo CD 3 the health's read of it may come on top.
      expect(calls.filter(call => call === 'resource-tree').length).toBeLessThanOrEqual(2);
      expect(calls.filter(call => /^resource (PolicyReport|HTTPRoute|Pod|AnalysisRun)$/.test(call)).sort()).toEqual([
        'resource HTTPRoute',
        'resource PolicyReport',
      ]);
    });

    it('--unschedulable: the scheduling hop quotes the scheduler, and the Pod to describe', async () => {
      const { reading, app } = await stalledAt('checkout', 'unschedulable', 'scheduling');
      expect(reading.evidence).toContain('0/3 nodes are available: 3 Insufficient cpu');
      expect(reading.lookAt?.text).toMatch(new RegExp(`^kubectl -n ${app} describe pod checkout-[a-z0-9]+-[a-z0-9]+$`));
      expect(reading.seenAt).toMatch(/Z$/);
    });

    it('--quota-exceeded: the scheduling hop names the ResourceQuota that refuses the pods', async () => {
      const { reading, diagnosis } = await stalledAt('storefront', 'quotaExceeded', 'scheduling');
      expect(reading.evidence).toMatch(/^ResourceQuota compute-resources refuses the pods: .*exceeded quota: compute-resources/);
      expect(reading.lookAt?.text).toMatch(/^kubectl -n \S+ describe /);
      expect(diagnosis).toMatchObject({ code: 'hop-stalled', state: 'stuck' });
    });

    it('--crash-loop: the probes hop names the container in CrashLoopBackOff and its restarts', async () => {
      const { reading, app } = await stalledAt('storefront', 'crashLoop', 'probes');
      expect(reading.evidence).toMatch(/^Container storefront in pod storefront-\S+ is in CrashLoopBackOff after \d+ restarts/);
      expect(reading.lookAt?.text).toMatch(new RegExp(`^kubectl -n ${app} (describe|logs)`));
    });

    it('--probe-failing: the probes hop names the failing readiness probe of the container', async () => {
      const { reading, app } = await stalledAt('storefront', 'probeFailing', 'probes');
      expect(reading.evidence).toMatch(/^Readiness probe of container storefront in pod storefront-\S+ fails/);
      expect(reading.evidence).toContain('HTTP probe failed with statuscode: 503');
      expect(reading.lookAt?.text).toMatch(new RegExp(`^kubectl -n ${app} describe pod storefront-`));
    });

    it('--route-not-accepted: the route hop names the Gateway that refuses the HTTPRoute', async () => {
      const { diagnosis, reading, app } = await stalledAt('storefront', 'routeNotAccepted', 'route');
      expect(reading.evidence).toMatch(/^HTTPRoute storefront is not accepted by Gateway \S+ \(NotAllowedByListeners\)/);
      expect(reading.lookAt).toEqual({ kind: 'kubectl', text: `kubectl -n ${app} describe httproute storefront` });
      expect(diagnosis.code).toBe('hop-stalled');
    });

    it('--slow-analysis: the analysis window is waiting, not stuck, with its measurements', async () => {
      // Not stuck, and how long is left: the canary step's pause, which the analysis runs within.
      const pauseLeft = /, not stuck; the canary's pause still runs \d+ ?s\b/;
      const { diagnosis, reading } = await stalledAt('checkout', 'slowAnalysis', 'analysis-window', 'waiting', pauseLeft);
      expect(reading.evidence).toMatch(/^Waiting for the analysis window \(success-rate: \d of 5 measurements/);
      expect(reading.evidence).toMatch(pauseLeft);
      expect(diagnosis.state).not.toBe('stuck');
      expect(diagnosis.hops!.find(h => h.hop === 'route')?.mark).toBe('not-reached');
    });

    it('a healthy ladder view reads no events nor any other hop evidence', async () => {
      const product = await shared.addProduct('alpha/shop');
      await cell(product, 'dev', 'storefront');
      sim.control.clearRequests();
      const dev = await cell(product, 'dev', 'storefront');
      expect(dev.verdict).toBe('healthy');
      expect(dev.diagnosis?.hops).toBeUndefined();
      const argocd = sim.control.getRequests('argocd');
      expect(argocd.length).toBeGreaterThan(0);
      expect(argocd.filter(call => EVIDENCE_READ.test(call.path) || EVIDENCE_READ.test(call.query))).toEqual([]);
    });
  });
  describe('stalls read where they happen, through the Kubernetes health source', () => {
    // The Argo CD 3 simulator of the block above; this backend reads the cluster's API instead of Argo CD's.
    const shared = sharedSimBackend({ sim: stallsSim('3'), healthSource: 'kubernetes' });
    const { stalledAt } = stallReadings(shared);
    /** The cluster reads of the evidence in `namespace`, as `<list path>` (a query's field selector names the object). */
    const evidenceReads = (namespace: string) =>
      shared.sim.control
        .getRequests('kubernetes')
        .filter(call => call.path.includes(`/namespaces/${namespace}/`))
        .map(call => call.path.replace(/^.*\/namespaces\/[^/]+\//, ''));

    it('--denied-by-admission: the same admission hop, evidence and ReplicaSet to describe, from one list of each kind', async () => {
      const { diagnosis, reading, app } = await stalledAt('storefront', 'deniedByAdmission', 'admission');
      expect(reading.evidence).toMatch(/^Kyverno policy verify-image\/check-signature denied the Pod: failed to verify image /);
      expect(reading.seenAt).toMatch(/Z$/);
      expect(reading.lookAt).toEqual({
        kind: 'kubectl',
        text: expect.stringMatching(new RegExp(`^kubectl -n ${app} describe replicaset storefront-[a-z0-9]+$`)),
      });
      expect(diagnosis).toMatchObject({ code: 'hop-stalled', state: 'stuck', likelyCause: reading.evidence });
      // The ladder's own Rollout reads come on top.
      expect(evidenceReads(app)).toEqual(
        expect.arrayContaining(['rollouts/storefront', 'replicasets', 'pods', 'policyreports', 'analysisruns', 'httproutes', 'events']),
      );
      expect(shared.sim.control.getRequests('argocd').filter(call => call.path.startsWith(`/api/v1/applications/${app}/`))).toEqual([]);
    });

    it('--slow-analysis: the same waiting analysis window, with its measurements', async () => {
      const { diagnosis, reading } = await stalledAt('checkout', 'slowAnalysis', 'analysis-window', 'waiting');
      expect(reading.evidence).toMatch(/^Waiting for the analysis window \(success-rate: \d of 5 measurements/);
      expect(reading.evidence).toContain('not stuck');
      expect(diagnosis.state).not.toBe('stuck');
      expect(diagnosis.hops!.find(h => h.hop === 'route')?.mark).toBe('not-reached');
    });
  });
}
