import {
  holdsCanary,
  PROGRESS_DEADLINE_STEPS,
  SLOW_ANALYSIS_MEASUREMENTS,
  SLOW_ANALYSIS_STEPS_PER_MEASUREMENT,
  Stall,
} from './stalls/stall';

/** How canaries progress; shared by every Rollout of a simulator. */
export interface CanaryPlan {
  /** setWeight values; each is followed by a pause step. */
  weights: number[];
  /** Duration of each pause; setWeight steps and the final promotion take half of it. */
  stepMs: number;
}

export type CanaryStep =
  { setWeight: number } | { pause: { duration: string } };

/** The canary steps as they appear in spec.strategy.canary.steps. */
export function canarySteps(plan: CanaryPlan): CanaryStep[] {
  const duration =
    plan.stepMs % 1000 === 0 ? `${plan.stepMs / 1000}s` : `${plan.stepMs}ms`;
  return plan.weights.flatMap(weight => [
    { setWeight: weight },
    { pause: { duration } },
  ]);
}

export function isPauseStep(plan: CanaryPlan, stepIndex: number): boolean {
  return stepIndex < plan.weights.length * 2 && stepIndex % 2 === 1;
}

/** The step at which the canary's analysis starts (spec.strategy.canary.analysis.startingStep): the first pause. */
export const ANALYSIS_STARTING_STEP = 1;

/**
 * How long the controller spends at a step index; index == steps.length is the final full promotion.
 * A slow analysis keeps the first pause until it has taken all its measurements.
 */
function stepDuration(plan: CanaryPlan, stepIndex: number, stall?: Stall): number {
  if (stall === 'slowAnalysis' && stepIndex === ANALYSIS_STARTING_STEP)
    return plan.stepMs * SLOW_ANALYSIS_MEASUREMENTS * SLOW_ANALYSIS_STEPS_PER_MEASUREMENT;
  return isPauseStep(plan, stepIndex) ? plan.stepMs : plan.stepMs / 2;
}

/** How long a canary may stay unavailable before the Rollout's progress deadline passes. */
export function progressDeadlineMs(plan: CanaryPlan): number {
  return PROGRESS_DEADLINE_STEPS * plan.stepMs;
}

export interface CanaryProgress {
  stepIndex: number;
  stepStartedAt: number;
  startedAt: number;
  /**
   * Whole canary steps spent at the current step, while the digest stalls: how often a
   * stalled canary's events repeated (and its container restarted), or how many
   * measurements a slow analysis took.
   */
  stepsWaited?: number;
  /** When a canary held by a stall passed its progress deadline. */
  timedOutAt?: number;
}

/**
 * What a Rollout controller would know about one Rollout. Everything visible
 * (status, ReplicaSets, pods, Argo CD health) is derived from this.
 */
export interface RolloutState {
  name: string;
  namespace: string;
  /** The image repository its pods pull (`imageRepository`); the digest is the version. */
  repository: string;
  createdAt: number;
  /** metadata.generation: bumps on every spec change. */
  generation: number;
  /** rollout.argoproj.io/revision: bumps on every new pod template. */
  revision: number;
  /** The digest serving as stable (what runs once no canary is active). */
  stableDigest: string;
  /** The digest in spec.template (what the controller is moving towards). */
  desiredDigest: string;
  /** Set while a canary is stepping. */
  canary?: CanaryProgress;
  /** Set when analysis failed: traffic went back to stable, the update is abandoned. */
  abortedAt?: number;
  /** How the digest in spec.template stalls in this cluster, if it does. */
  stall?: Stall;
  /** Test control: hold the canary at its current step. */
  frozenAt?: number;
  /** When the visible phase last changed (for condition timestamps). */
  phaseChangedAt: number;
}

/** A Rollout that already runs `digest` fully (seeded state, or a service's first deploy). */
export function newStableRollout(args: {
  name: string;
  namespace: string;
  repository: string;
  digest: string;
  now: number;
}): RolloutState {
  return {
    name: args.name,
    namespace: args.namespace,
    repository: args.repository,
    createdAt: args.now,
    generation: 1,
    revision: 1,
    stableDigest: args.digest,
    desiredDigest: args.digest,
    phaseChangedAt: args.now,
  };
}

/**
 * A new pod template arrives (a sync applied a new digest). Like Argo Rollouts:
 * going back to the stable digest is immediate; anything else starts a canary
 * from step 0, abandoning an earlier unfinished or aborted one.
 * Returns true when the Rollout changed.
 */
export function applyDigest(
  state: RolloutState,
  digest: string,
  now: number,
  stall?: Stall,
): boolean {
  if (digest === state.desiredDigest) return false;
  state.stall = stall;
  state.generation += 1;
  state.revision += 1;
  state.desiredDigest = digest;
  state.abortedAt = undefined;
  state.phaseChangedAt = now;
  // A frozen Rollout's clock starts with the new canary, not when it was frozen.
  if (state.frozenAt !== undefined) state.frozenAt = now;
  if (digest === state.stableDigest) {
    state.canary = undefined;
  } else {
    state.canary = { stepIndex: 0, stepStartedAt: now, startedAt: now };
  }
  return true;
}

/**
 * Moves the canary forward to `now`. A bad digest aborts as soon as the first
 * pause begins (that is when analysis would have run and failed). A stall that
 * holds the canary keeps it at its first step, Degraded once the progress
 * deadline passes; a slow analysis lengthens the first pause.
 * Returns true when anything visible changed.
 */
export function advanceRollout(
  state: RolloutState,
  plan: CanaryPlan,
  now: number,
  isBad: (digest: string) => boolean,
): boolean {
  let changed = false;
  const finalIndex = plan.weights.length * 2;
  while (state.canary && state.frozenAt === undefined) {
    const canary = state.canary;
    if (isPauseStep(plan, canary.stepIndex) && isBad(state.desiredDigest)) {
      state.abortedAt = canary.stepStartedAt;
      state.canary = undefined;
      state.phaseChangedAt = canary.stepStartedAt;
      return true;
    }
    if (holdsCanary(state.stall)) break;
    const endsAt =
      canary.stepStartedAt + stepDuration(plan, canary.stepIndex, state.stall);
    if (now < endsAt) break;
    changed = true;
    state.phaseChangedAt = endsAt;
    if (canary.stepIndex >= finalIndex) {
      state.stableDigest = state.desiredDigest;
      state.canary = undefined;
      break;
    }
    canary.stepIndex += 1;
    canary.stepStartedAt = endsAt;
  }
  if (state.canary && state.frozenAt === undefined && state.stall)
    changed = waitStalled(state, state.canary, plan, now) || changed;
  return changed;
}

/** Counts the steps a stalled canary waited at its step, and times a held one out at its progress deadline. */
function waitStalled(
  state: RolloutState,
  canary: CanaryProgress,
  plan: CanaryPlan,
  now: number,
): boolean {
  let changed = false;
  const waited = Math.floor((now - canary.stepStartedAt) / plan.stepMs);
  if (waited !== (canary.stepsWaited ?? 0)) {
    canary.stepsWaited = waited;
    changed = true;
  }
  const deadline = canary.startedAt + progressDeadlineMs(plan);
  if (holdsCanary(state.stall) && canary.timedOutAt === undefined && now >= deadline) {
    canary.timedOutAt = deadline;
    state.phaseChangedAt = deadline;
    changed = true;
  }
  return changed;
}

/** Freezes or releases a canary; a released one resumes with the time it had left. */
export function setFrozen(
  state: RolloutState,
  frozen: boolean,
  now: number,
): void {
  if (frozen && state.frozenAt === undefined) {
    state.frozenAt = now;
  } else if (!frozen && state.frozenAt !== undefined) {
    if (state.canary) state.canary.stepStartedAt += now - state.frozenAt;
    state.frozenAt = undefined;
  }
}
