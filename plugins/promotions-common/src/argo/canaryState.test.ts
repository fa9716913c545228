import {
  canaryState,
  describeCanary,
  formatSeconds,
  isRolloutAborted,
  parseRolloutDuration,
} from './canaryState';
import type { Rollout } from './types';
import { loadFixture, modifiedFixture } from '../__testUtils__/fixtures';

const NOW = new Date('2030-01-01T00:00:00Z');

/** canaryState of a real Rollout fixture, read at `now`. */
const canaryOf = (file: string, now: Date = NOW) =>
  canaryState(loadFixture<Rollout>(file), now);

describe('canaryState on the real Rollout fixtures', () => {
  it('setWeight progressing (pre-v1.0): step 3 of 4, 40% of traffic', () => {
    const state = canaryOf('rollout-canary-progressing-setweight.yaml');
    expect(state).toEqual({
      phase: 'Progressing',
      currentStep: 3,
      totalSteps: 4,
      complete: false,
      weight: 40,
      paused: false,
      aborted: false,
      message:
        'Waiting for roll out to finish: More replicas need to be updated',
    });
    expect(describeCanary(state)).toBe(
      'Canary in progress: step 3 of 4, 40% of traffic',
    );
  });

  it('paused v1.0 (status.phase Paused): step 1 of 8 at 21%, paused since the pause condition', () => {
    const now = new Date('2021-07-15T21:13:55Z'); // 5 minutes after the pause started
    const state = canaryOf('rollout-canary-paused-phase.yaml', now);
    expect(state).toEqual({
      phase: 'Paused',
      currentStep: 1,
      totalSteps: 8,
      complete: false,
      weight: 21,
      paused: true,
      pauseReason: 'CanaryPauseStep',
      pausedSince: '2021-07-15T21:08:55.000Z',
      pausedForSeconds: 300,
      aborted: false,
      message: 'CanaryPauseStep',
    });
    // `pause: {}` waits for a manual promote: no duration.
    expect(state.pauseDurationSeconds).toBeUndefined();
    expect(describeCanary(state)).toBe(
      'Canary paused (CanaryPauseStep) at step 1 of 8, 21% of traffic, for 5m; waits for a manual promote',
    );
  });

  it('paused 2025 shape: step 0 of 2, no setWeight yet → 0%', () => {
    const now = new Date('2025-05-15T14:17:58Z');
    const state = canaryOf('rollout-canary-paused-2025.yaml', now);
    expect(state.phase).toBe('Paused');
    expect(state.paused).toBe(true);
    expect(state.pauseReason).toBe('CanaryPauseStep');
    expect(state.pausedSince).toBe('2025-05-15T14:16:58.000Z');
    expect(state.pausedForSeconds).toBe(60);
    expect(state.currentStep).toBe(0);
    expect(state.totalSteps).toBe(2);
    expect(state.weight).toBe(0);
    expect(state.complete).toBe(false);
    expect(state.aborted).toBe(false);
  });

  it('paused by an inconclusive analysis but Degraded (ProgressDeadlineExceeded)', () => {
    const state = canaryOf('rollout-canary-paused-inconclusive-analysis.yaml');
    expect(state.phase).toBe('Degraded');
    expect(state.paused).toBe(true);
    expect(state.pauseReason).toBe('InconclusiveAnalysisRun');
    expect(state.currentStep).toBe(1);
    expect(state.totalSteps).toBe(2);
    expect(state.weight).toBe(25);
    expect(state.aborted).toBe(false);
  });

  it('aborted (RolloutAborted condition, status.abort): Degraded, 0% of traffic', () => {
    const state = canaryOf('rollout-canary-degraded-aborted.yaml');
    expect(state).toMatchObject({
      phase: 'Degraded',
      aborted: true,
      weight: 0,
      currentStep: 0,
      totalSteps: 6,
      complete: false,
      paused: false,
      message: 'Rollout is aborted',
    });
    expect(describeCanary(state)).toBe(
      'Canary aborted at step 0 of 6, 0% of traffic: Rollout is aborted',
    );
  });

  it('aborted by a failed background analysis', () => {
    const rollout = loadFixture<Rollout>(
      'rollout-canary-aborted-failed-analysis.yaml',
    );
    const state = canaryState(rollout, NOW);
    expect(isRolloutAborted(rollout)).toBe(true);
    expect(state).toMatchObject({
      phase: 'Degraded',
      aborted: true,
      weight: 0,
      currentStep: 0,
      totalSteps: 2,
      message:
        'metric "web" assessed Failed due to failed (1) > failureLimit (0)',
    });
  });

  it('healthy and completed: all 4 steps done, 100% of traffic', () => {
    const state = canaryOf('rollout-canary-healthy-completed.yaml');
    expect(state).toEqual({
      phase: 'Healthy',
      currentStep: 4,
      totalSteps: 4,
      complete: true,
      weight: 100,
      paused: false,
      aborted: false,
    });
    expect(describeCanary(state)).toBe('Canary complete: all 4 steps done');
  });

  it('traffic weights reported by the router win: 20%', () => {
    const state = canaryOf('rollout-canary-traffic-weights.yaml');
    expect(state.weight).toBe(20);
    expect(state.currentStep).toBe(0);
    expect(state.totalSteps).toBe(8);
    expect(state.phase).toBe('Degraded');
  });

  it('Degraded v1.0 phase with `conditions: {}`', () => {
    const state = canaryOf('rollout-canary-degraded-phase-message.yaml');
    expect(state.phase).toBe('Degraded');
    expect(state.message).toBe('InvalidSpec');
    expect(state.aborted).toBe(false);
    expect(state.currentStep).toBe(2);
    expect(state.totalSteps).toBe(2);
  });

  it('reads unquoted YAML timestamps (Date objects) the same as strings', () => {
    const now = new Date('2021-07-15T21:13:55Z');
    const asDates = canaryState(
      loadFixture<Rollout>('rollout-canary-paused-phase.yaml', 'yaml-1.1'),
      now,
    );
    const asStrings = canaryOf('rollout-canary-paused-phase.yaml', now);
    expect(asDates).toEqual(asStrings);
  });
});

describe('canaryState rules (synthetic Rollouts)', () => {
  function fromPaused(mutate: (r: any) => void): Rollout {
    return modifiedFixture('rollout-canary-paused-phase.yaml', mutate);
  }

  it('synthetic: a timed pause step gives duration and time left', () => {
    const rollout = fromPaused(r => {
      r.status.currentStepIndex = 3; // pause: { duration: 10 } after setWeight 40
    });
    const state = canaryState(rollout, new Date('2021-07-15T21:09:01Z'));
    expect(state.weight).toBe(40);
    expect(state.pauseDurationSeconds).toBe(10);
    expect(state.pausedForSeconds).toBe(6);
    expect(state.pauseRemainingSeconds).toBe(4);
    expect(describeCanary(state)).toBe(
      'Canary paused (CanaryPauseStep) at step 3 of 8, 40% of traffic, for 6s; resumes in 4s',
    );
  });

  it('synthetic: currentStepIndex beyond the steps is capped and complete', () => {
    const state = canaryState(
      fromPaused(r => {
        r.status.currentStepIndex = 12;
        r.status.phase = 'Healthy';
        r.status.message = '';
        r.status.pauseConditions = [];
      }),
      NOW,
    );
    expect(state.currentStep).toBe(8);
    expect(state.complete).toBe(true);
    expect(state.weight).toBe(100);
    expect(state.paused).toBe(false);
    expect(state.phase).toBe('Healthy');
  });

  it('synthetic: spec.paused without pause conditions', () => {
    const state = canaryState(
      fromPaused(r => {
        delete r.status.phase;
        delete r.status.message;
        r.status.pauseConditions = [];
        r.spec.paused = true;
      }),
      NOW,
    );
    expect(state.paused).toBe(true);
    expect(state.phase).toBe('Paused');
    expect(state.pauseReason).toBe('manually paused (spec.paused)');
    expect(state.pausedSince).toBeUndefined();
  });

  it('synthetic: a canary without steps is complete', () => {
    const state = canaryState(
      fromPaused(r => {
        r.spec.strategy.canary.steps = [];
        delete r.status.currentStepIndex;
      }),
      NOW,
    );
    expect(state.totalSteps).toBe(0);
    expect(state.currentStep).toBe(0);
    expect(state.complete).toBe(true);
  });

  it('synthetic: aborted v1.0 Rollout (status.abort, phase Degraded) → 0%', () => {
    const state = canaryState(
      fromPaused(r => {
        r.status.abort = true;
        r.status.phase = 'Degraded';
        r.status.message =
          'RolloutAborted: Rollout aborted update to revision 2';
        r.status.pauseConditions = [];
        r.status.controllerPause = false;
      }),
      NOW,
    );
    expect(state.aborted).toBe(true);
    expect(state.weight).toBe(0);
    expect(state.phase).toBe('Degraded');
    expect(state.paused).toBe(false);
  });
});

describe('parseRolloutDuration', () => {
  it.each<[string | number | undefined, number | undefined]>([
    [30, 30],
    ['30', 30],
    ['30s', 30],
    ['5m', 300],
    ['1h', 3600],
    ['1h30m', 5400],
    ['1.5h', 5400],
    ['500ms', 0.5],
    ['10x', undefined],
    ['', undefined],
    [undefined, undefined],
    [-1, undefined],
  ])('%p → %p', (value, expected) => {
    expect(parseRolloutDuration(value)).toBe(expected);
  });
});

describe('formatSeconds', () => {
  it.each([
    [0, '0s'],
    [45, '45s'],
    [300, '5m'],
    [330, '5m 30s'],
    [3600, '1h'],
    [3900, '1h 5m'],
    [90000, '1d 1h'],
  ])('%p → %p', (seconds, expected) => {
    expect(formatSeconds(seconds)).toBe(expected);
  });
});
