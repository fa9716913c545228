import { diagnose } from '../diagnose';
import {
  NEW,
  OLD,
  ago,
  PR,
  APP_URL,
  urls,
  labels,
  input,
  canary,
} from '../__testUtils__/diagnosisInput';

describe('diagnose: the Rollout', () => {
  it.each([
    [{}, 0, 'stuck'],
    [{ degradedStuckSeconds: 600 }, 599, 'in-progress'],
    [{ degradedStuckSeconds: 600 }, 600, 'in-progress'],
    [{ degradedStuckSeconds: 600 }, 601, 'stuck'],
  ])(
    'Degraded with thresholds %j for %ss is %s',
    (thresholds, degradedFor, state) => {
      const result = diagnose(
        input({
          promotion: {},
          runningDigests: [OLD, NEW],
          application: {
            healthStatus: 'Degraded',
            healthMessage:
              'Readiness probe failed: HTTP probe failed with statuscode: 503',
            healthSince: ago(degradedFor),
          },
        }),
        thresholds,
      );
      expect(result).toMatchObject({ state, code: 'degraded' });
      expect(result.lastCompletedStep).toBe('ArgoCD synced the new Release');
      expect(result.likelyCause).toContain('probes are failing');
      expect(result.likelyCause).toContain('statuscode: 503');
      const look = labels(result);
      expect(look).toContain("storefront's readiness endpoint");
      expect(look).toContain('kubectl describe pod -n alpha-shop-test');
      expect(look).toContain('kubectl argo rollouts get rollout storefront');
      expect(urls(result)).toEqual([APP_URL, PR]);
    },
  );

  it('Degraded without a known start is stuck even with a threshold', () => {
    const result = diagnose(
      input({
        releaseChangedAt: undefined,
        application: {
          healthStatus: 'Degraded',
          operationFinishedAt: undefined,
        },
      }),
      { degradedStuckSeconds: 600 },
    );
    expect(result).toMatchObject({ state: 'stuck', code: 'degraded' });
  });

  it('a Degraded canary names the canary step', () => {
    const result = diagnose(
      input({
        runningDigests: [OLD, NEW],
        application: { healthStatus: 'Degraded' },
        canary: canary({
          phase: 'Degraded',
          paused: false,
          message: 'ProgressDeadlineExceeded',
        }),
      }),
    );
    expect(result.code).toBe('degraded');
    expect(result.lastCompletedStep).toBe('Canary at 25% (step 1 of 4)');
    expect(result.likelyCause).toContain('ProgressDeadlineExceeded');
  });

  it('Degraded on an image pull says what the registry check found: never pushed', () => {
    const notPushed = "storefront sha256:0123456789ab never reached the registry: it has no manifest there (look at the CI run's push step)";
    const result = diagnose(
      input({
        provenance: { state: 'failed', reasons: [notPushed] },
        application: { healthStatus: 'Degraded', healthMessage: 'Back-off pulling image: ImagePullBackOff' },
      }),
    );
    expect(result.likelyCause).toContain(`the pods cannot pull the image — the digest never reached the registry (checked in the registry: ${notPushed})`);
  });

  it('Degraded on failing probes ignores the supply chain', () => {
    const result = diagnose(
      input({
        provenance: { state: 'failed', reasons: ['storefront sha256:0123456789ab is not signed'] },
        application: { healthStatus: 'Degraded', healthMessage: 'Readiness probe failed' },
      }),
    );
    expect(result.likelyCause).not.toContain('checked in the registry');
  });

  it('Degraded on an image pull points at the CI push step', () => {
    const result = diagnose(
      input({
        application: {
          healthStatus: 'Degraded',
          healthMessage: 'Back-off pulling image: ImagePullBackOff',
        },
      }),
    );
    expect(result.code).toBe('degraded');
    expect(result.likelyCause).toContain('never reached the registry');
    expect(result.whereToLook[0].label).toContain("The CI run's push step");
  });

  it('Degraded on scheduling points at pod events', () => {
    const result = diagnose(
      input({
        application: {
          healthStatus: 'Degraded',
          healthMessage:
            '0/3 nodes are available: 3 Insufficient cpu (FailedScheduling)',
        },
      }),
    );
    expect(result.code).toBe('degraded');
    expect(result.likelyCause).toContain('cannot schedule');
    expect(result.whereToLook[0].label).toContain('Pod events');
  });

  it('an aborted Rollout keeps the old digest serving', () => {
    const result = diagnose(
      input({
        promotion: {},
        runningDigests: [OLD],
        application: { healthStatus: 'Degraded' },
        canary: canary({
          phase: 'Degraded',
          aborted: true,
          paused: false,
          weight: 0,
          message: 'RolloutAborted: Metric "success-rate" assessed Failed',
        }),
      }),
    );
    expect(result).toMatchObject({ state: 'stuck', code: 'rollout-aborted' });
    expect(result.lastCompletedStep).toBe('ArgoCD synced the new Release');
    expect(result.likelyCause).toContain('analysis failed');
    expect(result.likelyCause).toContain('success-rate');
    expect(result.likelyCause).toContain('old digest keeps serving');
    expect(result.likelyCause).toContain('push a new digest, or roll back');
    expect(labels(result)).toContain(
      'kubectl get analysisruns -n alpha-shop-test',
    );
    expect(urls(result)).toEqual([APP_URL, PR]);
  });

  it('reads an abort from the health message when no canary state is given', () => {
    const result = diagnose(
      input({
        runningDigests: [OLD],
        application: {
          healthStatus: 'Degraded',
          healthMessage: 'Rollout aborted update to revision 3',
        },
      }),
    );
    expect(result.code).toBe('rollout-aborted');
  });
});
