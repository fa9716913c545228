import { loadFixture } from '../../__testUtils__/fixtures';
import { events, evidence, POD, runningPod } from '../__testUtils__/hopEvidence';
import type { KubePod } from './hopEvidence';
import { probesHop } from './probesHop';

const probeEvents = events('events-probes-readiness-failed.yaml');
/** Argo CD's real CrashLoopBackOff pod (`my-pod`, container `main`). */
const crashLoop = loadFixture<KubePod>('pod-crashloop.yaml');
const crashLoopEvidence = evidence({ namespace: 'argocd', workload: 'my-pod', digest: undefined, pods: [crashLoop] });

describe('probesHop', () => {
  it.each([
    ['a container in CrashLoopBackOff', crashLoopEvidence, 'stalled'],
    ['readiness probes fail', evidence({ events: probeEvents }), 'stalled'],
    ['readiness probes fail, the pods still not ready', evidence({ events: probeEvents, pods: [runningPod(false), runningPod(false, 'storefront-6c9f8b7d4-zq7wm')] }), 'stalled'],
    ['the failures are history: every pod is ready', evidence({ events: probeEvents, pods: [runningPod(true), runningPod(true, 'storefront-6c9f8b7d4-zq7wm')] }), 'completed'],
    ['pods running, not ready, nothing says why', evidence({ pods: [runningPod(false)] }), 'unknown'],
    ['nothing read', evidence(), 'unknown'],
  ])('%s: %s', (_case, input, mark) => {
    expect(probesHop(input).mark).toBe(mark);
  });

  it('names the crash-looping container, its restarts and last exit', () => {
    expect(probesHop(crashLoopEvidence)).toMatchObject({
      hop: 'probes',
      evidence:
        'Container main in pod my-pod is in CrashLoopBackOff after 3 restarts; last exit: Error (exit code 1): Back-off 40s restarting failed container=main pod=my-pod_argocd(63674389-f613-11e8-a057-fe5f49266390)',
      lookAt: { kind: 'kubectl', text: 'kubectl -n argocd logs my-pod -c main --previous' },
    });
  });

  it('names the probe, the container and the status code', () => {
    expect(probesHop(evidence({ events: probeEvents }))).toMatchObject({
      evidence: `Readiness probe of container storefront in pod ${POD} fails: HTTP probe failed with statuscode: 503 (seen 42 times); the container restarts in a back-off loop`,
      seenAt: '2025-06-01T11:59:32.000Z',
      lookAt: { text: `kubectl -n alpha-shop-test describe pod ${POD}` },
    });
  });

  it("names the probe's path where the message quotes it", () => {
    const refused = probeEvents.filter(e => e.involvedObject.name === 'storefront-6c9f8b7d4-zq7wm');
    expect(probesHop(evidence({ events: refused })).evidence).toBe(
      'Readiness probe of container storefront in pod storefront-6c9f8b7d4-zq7wm fails on /healthz/ready: Get "http://10.0.12.7:8080/healthz/ready": dial tcp 10.0.12.7:8080: connect: connection refused (seen 7 times); the container restarts in a back-off loop',
    );
  });

  it('a restart loop without probe events still stalls', () => {
    const backOff = probeEvents.filter(e => e.reason === 'BackOff');
    expect(probesHop(evidence({ events: backOff })).evidence).toMatch(
      /^Pod storefront-6c9f8b7d4-zq7wm: Back-off restarting failed container storefront .* \(seen 12 times\)$/,
    );
  });
});
