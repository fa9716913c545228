import { loadFixture } from '../../__testUtils__/fixtures';
import { canary } from '../__testUtils__/diagnosisInput';
import { events, evidence, runningAnalysis, runningPod } from '../__testUtils__/hopEvidence';
import { diagnoseHops, firstStalledHop } from './diagnoseHops';
import type { AnalysisRun, HopEvidence, HTTPRoute, KubePod } from './hopEvidence';

const ready = [runningPod(true)];
const acceptedRoute = loadFixture<HTTPRoute>('httproute-accepted.yaml');
const verified = { state: 'verified' as const, reasons: [] };

/** The marks in the seed's order: registry, admission, scheduling, image pull, probes, analysis, route. */
const marks = (input: HopEvidence) => diagnoseHops(input).map(r => `${r.hop}:${r.mark}`);

describe('diagnoseHops', () => {
  it('lists every hop in the order they happen', () => {
    expect(diagnoseHops(evidence()).map(r => r.hop)).toEqual([
      'registry',
      'admission',
      'scheduling',
      'image-pull',
      'probes',
      'analysis-window',
      'route',
    ]);
  });

  it.each([
    ['registry', { events: events('events-image-pull-manifest-unknown.yaml') }],
    ['admission', { events: events('events-admission-kyverno-denied.yaml'), provenance: verified, pods: [] }],
    ['scheduling', { events: events('events-scheduling-insufficient-cpu.yaml'), provenance: verified }],
    ['scheduling', { events: events('events-scheduling-quota-exceeded.yaml'), provenance: verified }],
    ['image-pull', { events: events('events-image-pull-unauthorized.yaml'), pods: [loadFixture<KubePod>('pod-storefront-imagepullbackoff.yaml')], provenance: verified }],
    ['probes', { events: events('events-probes-readiness-failed.yaml'), pods: [runningPod(false)] }],
    ['analysis-window', { pods: ready, analysisRuns: [loadFixture<AnalysisRun>('analysisrun-failed-web-metric.yaml')] }],
    ['route', { pods: ready, analysisRuns: [loadFixture<AnalysisRun>('analysisrun-successful.yaml')], routes: [loadFixture<HTTPRoute>('httproute-backend-not-found.yaml')] }],
  ])('stalls at %s, and the hops after it are not reached', (hop, overrides) => {
    const readings = diagnoseHops(evidence(overrides));
    const at = readings.findIndex(r => r.hop === hop);
    expect(readings[at]).toMatchObject({ mark: 'stalled', evidence: expect.any(String), lookAt: expect.any(Object) });
    expect(readings.slice(at + 1).map(r => r.mark)).toEqual(readings.slice(at + 1).map(() => 'not-reached'));
    expect(readings.slice(0, at).map(r => r.mark)).not.toContain('stalled');
  });

  it('an image the registry lacks stalls at the registry: the pull after it is not reached', () => {
    expect(marks(evidence({ events: events('events-image-pull-manifest-unknown.yaml') }))).toEqual([
      'registry:stalled',
      'admission:not-reached',
      'scheduling:not-reached',
      'image-pull:not-reached',
      'probes:not-reached',
      'analysis-window:not-reached',
      'route:not-reached',
    ]);
  });

  it('a canary with ready pods and measurements still running is waiting, not stuck', () => {
    const readings = diagnoseHops(
      evidence({
        provenance: verified,
        pods: ready,
        analysisRuns: [runningAnalysis],
        canary: canary({ pauseRemainingSeconds: 300 }),
        // A route refused now is not what holds the canary: it is not reached yet.
        routes: [loadFixture<HTTPRoute>('httproute-not-allowed-by-listeners.yaml')],
      }),
    );
    expect(readings.map(r => `${r.hop}:${r.mark}`)).toEqual([
      'registry:completed',
      'admission:completed',
      'scheduling:completed',
      'image-pull:completed',
      'probes:completed',
      'analysis-window:waiting',
      'route:not-reached',
    ]);
    expect(readings[5].evidence).toBe(
      "Waiting for the analysis window (web: 3 of 5 measurements, last value true, 0 failed (failure limit 1)), not stuck; the canary's pause still runs 5m",
    );
    expect(firstStalledHop(readings)).toBeUndefined();
  });

  it('a healthy rollout completes every hop', () => {
    const readings = diagnoseHops(
      evidence({
        provenance: verified,
        pods: ready,
        analysisRuns: [loadFixture<AnalysisRun>('analysisrun-successful.yaml')],
        routes: [acceptedRoute],
      }),
    );
    expect(readings.every(r => r.mark === 'completed')).toBe(true);
  });

  it('the last completed hop is the one before the stall, skipping what is unknown', () => {
    const readings = diagnoseHops(
      evidence({ events: events('events-scheduling-insufficient-cpu.yaml'), provenance: verified }),
    );
    expect(firstStalledHop(readings)).toMatchObject({
      stalled: { hop: 'scheduling' },
      lastCompleted: { hop: 'registry' },
    });
  });
});
