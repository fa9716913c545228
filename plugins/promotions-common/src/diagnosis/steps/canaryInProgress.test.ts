import { diagnose } from '../diagnose';
import {
  NEW,
  OLD,
  APP_URL,
  urls,
  labels,
  input,
  canary,
  pausedCanary,
} from '../__testUtils__/diagnosisInput';

describe('diagnose: the Rollout', () => {
  it.each([
    [
      0,
      300,
      'in-progress',
      'canary-soaking',
      'usually soaking, not stuck: 5m pause, 5m left',
    ],
    [
      120,
      300,
      'in-progress',
      'canary-soaking',
      'usually soaking, not stuck: 5m pause, 3m left',
    ],
    [
      300,
      300,
      'in-progress',
      'canary-soaking',
      'usually soaking, not stuck: 5m pause, 0s left',
    ],
    [301, 300, 'in-progress', 'canary-soaking', 'pause ended 1s ago'],
    [900, 300, 'in-progress', 'canary-soaking', 'pause ended 10m ago'],
    [901, 300, 'stuck', 'canary-stuck', '10m 1s longer than its 5m pause'],
  ])(
    'a canary paused %ss on a %ss pause is %s (%s)',
    (pausedFor, duration, state, code, text) => {
      const result = diagnose(
        input({
          runningDigests: [OLD, NEW],
          application: { healthStatus: 'Suspended' },
          canary: pausedCanary(pausedFor, duration),
        }),
      );
      expect(result).toMatchObject({ state, code });
      expect(result.lastCompletedStep).toBe('Canary at 25% (step 1 of 4)');
      expect(result.likelyCause).toContain(text);
      expect(result.likelyCause.includes('usually soaking, not stuck')).toBe(
        code === 'canary-soaking',
      );
      expect(labels(result)).toContain(
        'kubectl argo rollouts get rollout storefront -n alpha-shop-test',
      );
      expect(urls(result)).toEqual([APP_URL]);
    },
  );

  it('honours a custom canary threshold', () => {
    const canaryInput = input({
      runningDigests: [OLD, NEW],
      application: { healthStatus: 'Suspended' },
      canary: pausedCanary(400, 300),
    });
    expect(diagnose(canaryInput, { canaryStuckSeconds: 99 }).code).toBe(
      'canary-stuck',
    );
    expect(diagnose(canaryInput, { canaryStuckSeconds: 100 }).code).toBe(
      'canary-soaking',
    );
  });

  it.each([
    [600, 'in-progress', 'canary-soaking'],
    [601, 'stuck', 'canary-stuck'],
  ])('an indefinite pause for %ss is %s', (pausedFor, state, code) => {
    const result = diagnose(
      input({
        runningDigests: [OLD, NEW],
        application: { healthStatus: 'Suspended' },
        canary: pausedCanary(pausedFor, undefined),
      }),
    );
    expect(result).toMatchObject({ state, code });
    expect(result.lastCompletedStep).toContain('Canary at 25%');
    expect(result.likelyCause).toContain(
      'waiting for a manual promote: kubectl argo rollouts promote storefront',
    );
    expect(result.whereToLook[0].label).toBe(
      'kubectl argo rollouts promote storefront -n alpha-shop-test',
    );
  });

  it('an inconclusive analysis waits for a person', () => {
    const state = pausedCanary(700, undefined);
    state.pauseReason = 'InconclusiveAnalysisRun';
    const result = diagnose(
      input({ runningDigests: [OLD, NEW], canary: state }),
    );
    expect(result).toMatchObject({ state: 'stuck', code: 'canary-stuck' });
    expect(result.likelyCause).toContain('analysis was inconclusive');
  });

  it('a timed pause of unknown start is soaking', () => {
    const result = diagnose(
      input({
        runningDigests: [OLD, NEW],
        canary: pausedCanary(undefined, 300),
      }),
    );
    expect(result).toMatchObject({
      state: 'in-progress',
      code: 'canary-soaking',
    });
    expect(result.likelyCause).toContain('5m pause');
  });

  it('a progressing canary is in progress', () => {
    const result = diagnose(
      input({
        runningDigests: [OLD, NEW],
        application: { healthStatus: 'Progressing' },
        canary: canary({
          phase: 'Progressing',
          paused: false,
          pauseReason: undefined,
          currentStep: 2,
          weight: 50,
        }),
      }),
    );
    expect(result).toMatchObject({
      state: 'in-progress',
      code: 'canary-soaking',
    });
    expect(result.lastCompletedStep).toBe('Canary at 50% (step 2 of 4)');
  });

  it('a Suspended Application without canary details is soaking', () => {
    const result = diagnose(
      input({
        runningDigests: [OLD, NEW],
        application: { healthStatus: 'Suspended' },
      }),
    );
    expect(result).toMatchObject({
      state: 'in-progress',
      code: 'canary-soaking',
    });
  });
});
