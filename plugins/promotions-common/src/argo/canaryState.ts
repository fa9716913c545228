import { rolloutConditions, rolloutHealth } from './rolloutHealth';
import { argoTimeIso, argoTimeMillis } from './time';
import type { Rollout, RolloutDuration } from './types';

/**
 * The Rollouts phase vocabulary (Argo CD's `Suspended` is the Rollouts `Paused`).
 *
 * @public
 */
export type CanaryPhase =
  'Healthy' | 'Progressing' | 'Paused' | 'Degraded' | 'Unknown';

/**
 * Where a canary Rollout stands, for display and for the health rule.
 *
 * @public
 */
export interface CanaryState {
  /** `status.phase` when the controller has observed the spec, else derived like Argo CD does. */
  phase: CanaryPhase;
  /** `status.currentStepIndex` (steps done), capped to `totalSteps`; 0 when absent. */
  currentStep: number;
  /** `spec.strategy.canary.steps.length`. */
  totalSteps: number;
  /** `currentStepIndex >= steps.length`: every step has been executed. */
  complete: boolean;
  /** Percentage of traffic the canary gets (see {@link canaryState}). */
  weight: number;
  paused: boolean;
  /** `pauseConditions[0].reason` (`CanaryPauseStep`, `InconclusiveAnalysisRun`, ...). */
  pauseReason?: string;
  /** ISO 8601 start of the current pause. */
  pausedSince?: string;
  pausedForSeconds?: number;
  /** The current step's `pause.duration` in seconds; absent for an indefinite `pause: {}`. */
  pauseDurationSeconds?: number;
  /** Seconds left of a timed pause step (never negative). */
  pauseRemainingSeconds?: number;
  aborted: boolean;
  message?: string;
}

const DURATION_UNIT_SECONDS: Record<string, number> = {
  ns: 1e-9,
  us: 1e-6,
  µs: 1e-6,
  ms: 1e-3,
  s: 1,
  m: 60,
  h: 3600,
};

/**
 * A Rollouts pause duration in seconds: a number (seconds), a digits-only string (seconds), or a
 * Go duration string (`30s`, `5m`, `1h`, `1h30m`, `1.5h`). Undefined when absent or unparseable.
 *
 * @public
 */
export function parseRolloutDuration(
  value: RolloutDuration | undefined | null,
): number | undefined {
  if (typeof value === 'number')
    return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const s = value.trim();
  if (/^\d+$/.test(s)) return Number(s);
  if (!/^((\d+\.?\d*|\.\d+)(ns|us|µs|ms|s|m|h))+$/.test(s)) return undefined;
  let total = 0;
  for (const match of s.matchAll(/(\d+\.?\d*|\.\d+)(ns|us|µs|ms|s|m|h)/g)) {
    total += Number(match[1]) * DURATION_UNIT_SECONDS[match[2]];
  }
  return total;
}

/**
 * Whether the Rollout was aborted: `status.abort`, or a `RolloutAborted` condition.
 *
 * @public
 */
export function isRolloutAborted(rollout: Rollout): boolean {
  if (rollout.status?.abort === true) return true;
  return rolloutConditions(rollout).some(c => c?.reason === 'RolloutAborted');
}

/**
 * The canary state of a Rollout at time `now`.
 *
 * `weight` is `status.canary.weights.canary.weight` when the traffic router reports it; else 0
 * when aborted, 100 when every step is done, else the last `setWeight` at or before the current
 * step (0 before the first one).
 *
 * @public
 */
export function canaryState(rollout: Rollout, now: Date): CanaryState {
  const status = rollout.status ?? {};
  const steps = rollout.spec?.strategy?.canary?.steps;
  const totalSteps = Array.isArray(steps) ? steps.length : 0;
  const index =
    typeof status.currentStepIndex === 'number' &&
    Number.isFinite(status.currentStepIndex)
      ? Math.max(0, Math.floor(status.currentStepIndex))
      : 0;
  const currentStep = Math.min(index, totalSteps);
  const complete = index >= totalSteps;
  const aborted = isRolloutAborted(rollout);

  const health = rolloutHealth(rollout);
  const phase: CanaryPhase =
    health.status === 'Suspended' ? 'Paused' : health.status;

  let weight: number;
  const reported = status.canary?.weights?.canary?.weight;
  if (typeof reported === 'number' && Number.isFinite(reported)) {
    weight = reported;
  } else if (aborted) {
    weight = 0;
  } else if (complete) {
    weight = 100;
  } else {
    weight = 0;
    for (let i = Math.min(index, totalSteps - 1); i >= 0; i--) {
      const setWeight = steps![i]?.setWeight;
      if (typeof setWeight === 'number') {
        weight = setWeight;
        break;
      }
    }
  }

  const pauseConditions = Array.isArray(status.pauseConditions)
    ? status.pauseConditions
    : [];
  const paused =
    pauseConditions.length > 0 ||
    rollout.spec?.paused === true ||
    phase === 'Paused';

  const state: CanaryState = {
    phase,
    currentStep,
    totalSteps,
    complete,
    weight,
    paused,
    aborted,
  };
  if (health.message) state.message = health.message;

  if (paused) {
    const first = pauseConditions[0];
    const reason =
      first?.reason ||
      (rollout.spec?.paused === true
        ? 'manually paused (spec.paused)'
        : status.message);
    if (reason) state.pauseReason = reason;
    const sinceMs = argoTimeMillis(first?.startTime);
    if (sinceMs !== undefined) {
      state.pausedSince = argoTimeIso(first?.startTime);
      state.pausedForSeconds = Math.max(
        0,
        Math.floor((now.getTime() - sinceMs) / 1000),
      );
    }
    const duration = !complete
      ? parseRolloutDuration(steps?.[index]?.pause?.duration)
      : undefined;
    if (duration !== undefined) {
      state.pauseDurationSeconds = duration;
      if (state.pausedForSeconds !== undefined) {
        state.pauseRemainingSeconds = Math.max(
          0,
          Math.ceil(duration - state.pausedForSeconds),
        );
      }
    }
  }
  return state;
}

/**
 * `45s`, `12m`, `3h 5m`, `2d 4h`.
 *
 * @public
 */
export function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) {
    const m = Math.floor(s / 60);
    const rest = s % 60;
    return rest ? `${m}m ${rest}s` : `${m}m`;
  }
  if (s < 86400) {
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    return m ? `${h}h ${m}m` : `${h}h`;
  }
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  return h ? `${d}d ${h}h` : `${d}d`;
}

/**
 * One line for people: `Canary in progress: step 3 of 4, 40% of traffic`,
 * `Canary paused (CanaryPauseStep) at step 1 of 8, 21% of traffic, for 5m; waits for a manual
 * promote`, `Canary aborted at step 0 of 2, 0% of traffic: <message>`, `Canary complete: all 4
 * steps done`.
 *
 * @public
 */
export function describeCanary(state: CanaryState): string {
  const position = `step ${state.currentStep} of ${state.totalSteps}, ${state.weight}% of traffic`;
  if (state.aborted) {
    return `Canary aborted at ${position}${state.message ? `: ${state.message}` : ''}`;
  }
  if (state.paused) {
    let text = `Canary paused${state.pauseReason ? ` (${state.pauseReason})` : ''} at ${position}`;
    if (state.pausedForSeconds !== undefined)
      text += `, for ${formatSeconds(state.pausedForSeconds)}`;
    if (state.pauseRemainingSeconds !== undefined) {
      text += `; resumes in ${formatSeconds(state.pauseRemainingSeconds)}`;
    } else if (state.pauseReason === 'CanaryPauseStep') {
      text += '; waits for a manual promote';
    }
    return text;
  }
  if (state.complete && state.phase === 'Healthy') {
    return `Canary complete: all ${state.totalSteps} steps done`;
  }
  if (state.phase === 'Degraded') {
    return `Canary degraded at ${position}${state.message ? `: ${state.message}` : ''}`;
  }
  return `Canary in progress: ${position}`;
}
