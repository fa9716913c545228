import { DEFAULT_DIAGNOSIS_THRESHOLDS, Diagnosis, diagnose } from './diagnose';
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
} from './__testUtils__/diagnosisInput';

describe('DEFAULT_DIAGNOSIS_THRESHOLDS', () => {
  it('has the documented defaults', () => {
    expect(DEFAULT_DIAGNOSIS_THRESHOLDS).toEqual({
      syncStuckSeconds: 300,
      canaryStuckSeconds: 600,
      approvalWaitSeconds: 86400,
      degradedStuckSeconds: 0,
    });
  });
});

describe('diagnose: healthy', () => {
  it('is ok when synced, healthy and running the released digest', () => {
    const result = diagnose(input({ promotion: {} }));
    expect(result).toMatchObject({ state: 'ok', code: 'healthy' });
    expect(result.lastCompletedStep).toBe('Serving sha256:aaaaaaaaaaaa…');
    expect(result.likelyCause).toContain('Nothing is stuck');
    expect(urls(result)).toEqual([APP_URL, PR]);
  });

  it('says the canary is complete when there was one', () => {
    const result = diagnose(
      input({
        canary: canary({
          phase: 'Healthy',
          complete: true,
          currentStep: 4,
          weight: 100,
          paused: false,
          pauseReason: undefined,
        }),
      }),
    );
    expect(result.code).toBe('healthy');
    expect(result.lastCompletedStep).toContain('Canary complete');
  });

  it('ignores a closed promotion', () => {
    const result = diagnose(
      input({ promotion: { status: 'closed', healthState: 'failure' } }),
    );
    expect(result).toMatchObject({ state: 'ok', code: 'healthy' });
    expect(result.lastCompletedStep).toContain('Serving');
  });

  it('is ok with nothing to deploy when nothing is released', () => {
    const result = diagnose(
      input({ releasedDigest: undefined, application: { missing: true } }),
    );
    expect(result).toMatchObject({ state: 'ok', code: 'healthy' });
    expect(result.lastCompletedStep).toBe('Nothing released to test');
    expect(result.likelyCause).toContain('not released to test');
  });
});

describe('diagnose: each service by its own resources', () => {
  /** storefront's canary failed in a stage of three services: the Application is Degraded. */
  const degradedByStorefront = {
    syncStatus: 'Synced',
    healthStatus: 'Degraded',
    healthMessage: 'Rollout is aborted',
  };

  it.each<[string, Parameters<typeof input>[0], Partial<Diagnosis>]>([
    [
      "cart, healthy, in a stage Degraded by storefront's canary",
      {
        service: 'cart',
        application: degradedByStorefront,
        rolloutHealth: { status: 'Healthy' },
        serviceHealthy: true,
        stageHealthy: false,
      },
      { state: 'ok', code: 'healthy' },
    ],
    [
      "checkout, healthy, while cart's new digest leaves the Application OutOfSync 30 s after the merge",
      {
        service: 'checkout',
        releaseChangedAt: ago(30),
        application: { syncStatus: 'OutOfSync', healthStatus: 'Progressing' },
        rolloutHealth: { status: 'Healthy' },
        serviceHealthy: true,
        stageHealthy: false,
      },
      { state: 'ok', code: 'healthy' },
    ],
    [
      "storefront itself: its own aborted Rollout, read from the Rollout's health",
      {
        runningDigests: [OLD],
        application: degradedByStorefront,
        rolloutHealth: { status: 'Degraded', message: 'Rollout is aborted' },
        serviceHealthy: false,
        stageHealthy: false,
      },
      { state: 'stuck', code: 'rollout-aborted' },
    ],
    [
      "cart's own Rollout Progressing while the Application is Degraded by storefront",
      {
        service: 'cart',
        runningDigests: [OLD, NEW],
        application: degradedByStorefront,
        rolloutHealth: { status: 'Progressing' },
        serviceHealthy: false,
        stageHealthy: false,
      },
      { state: 'in-progress', code: 'syncing' },
    ],
    [
      "no Rollout health known: the Application's Degraded health decides",
      {
        application: {
          healthStatus: 'Degraded',
          healthMessage: 'Readiness probe failed',
        },
        serviceHealthy: false,
        stageHealthy: false,
      },
      { state: 'stuck', code: 'degraded' },
    ],
  ])('%s', (_name, overrides, expected) => {
    const result = diagnose(input(overrides));
    expect(result).toMatchObject(expected);
    // a diagnosis of another service never sends people to storefront's probes
    const aboutAnotherService =
      !!overrides?.service && overrides.service !== 'storefront';
    expect(
      aboutAnotherService &&
        /probes|storefront/.test(`${result.likelyCause}\n${labels(result)}`),
    ).toBe(false);
  });

  it("names the failing service's own Rollout, not the Application, as Degraded", () => {
    const result = diagnose(
      input({
        runningDigests: [OLD],
        application: { healthStatus: 'Degraded' },
        rolloutHealth: {
          status: 'Degraded',
          message: 'Readiness probe failed',
        },
        serviceHealthy: false,
        stageHealthy: false,
      }),
    );
    expect(result.code).toBe('degraded');
    expect(result.likelyCause).toMatch(/^Rollout storefront is Degraded/);
  });
});
