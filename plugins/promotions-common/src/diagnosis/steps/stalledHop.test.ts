import { loadFixture } from '../../__testUtils__/fixtures';
import { diagnose } from '../diagnose';
import { APP_URL, canary, input, labels, NEW, OLD, urls } from '../__testUtils__/diagnosisInput';
import { events, evidence, runningAnalysis, runningPod } from '../__testUtils__/hopEvidence';
import type { HTTPRoute } from '../hops/hopEvidence';

describe('diagnose: a stalled hop gives the reason', () => {
  it('a Degraded rollout refused at admission names the Kyverno policy, not a guess', () => {
    const result = diagnose(
      input({
        runningDigests: [OLD],
        application: { healthStatus: 'Degraded', healthMessage: 'ProgressDeadlineExceeded' },
        hops: evidence({ events: events('events-admission-kyverno-denied.yaml'), pods: [] }),
      }),
    );
    expect(result).toMatchObject({
      state: 'stuck',
      code: 'hop-stalled',
      lastCompletedStep: 'ArgoCD synced the new Release',
    });
    expect(result.likelyCause).toMatch(/^Kyverno policy verify-image\/check-signature denied the Pod: /);
    expect(labels(result)).toContain('kubectl -n alpha-shop-test describe replicaset storefront-6c9f8b7d4');
    expect(urls(result)).toEqual([APP_URL]);
    expect(result.hops?.map(h => `${h.hop}:${h.mark}`).slice(1, 3)).toEqual(['admission:stalled', 'scheduling:not-reached']);
  });

  it('a healthy workload whose route is refused: the last completed hop is the analysis', () => {
    const result = diagnose(
      input({
        runningDigests: [NEW],
        hops: evidence({
          pods: [runningPod(true)],
          analysisRuns: [loadFixture('analysisrun-successful.yaml')],
          routes: [loadFixture<HTTPRoute>('httproute-not-allowed-by-listeners.yaml')],
        }),
      }),
    );
    expect(result).toMatchObject({
      code: 'hop-stalled',
      lastCompletedStep: 'The analysis passed',
      likelyCause: expect.stringContaining('(NotAllowedByListeners)'),
    });
  });

  it('a canary still measuring is left to the canary step: soaking, not stuck', () => {
    const result = diagnose(
      input({
        runningDigests: [OLD, NEW],
        canary: canary({ pausedForSeconds: 60, pauseDurationSeconds: 600, pauseRemainingSeconds: 540 }),
        hops: evidence({ pods: [runningPod(true)], analysisRuns: [runningAnalysis] }),
      }),
    );
    expect(result).toMatchObject({ state: 'in-progress', code: 'canary-soaking' });
    // The hops say why it is not stuck: the analysis window is still measuring.
    expect(result.hops?.find(h => h.hop === 'analysis-window')).toMatchObject({
      mark: 'waiting',
      evidence: expect.stringContaining('not stuck'),
    });
    expect(result.hops?.find(h => h.hop === 'route')?.mark).toBe('not-reached');
  });

  it('carries no hops where the caller read none', () => {
    expect(diagnose(input({ runningDigests: [NEW] })).hops).toBeUndefined();
  });
});
