/**
 * The ways a build stalls in a stage (seed 000's table of stalled rollouts),
 * each at the hop where a real cluster would stop it: admission, the
 * scheduler, a quota, the kubelet's probes or restarts, a slow analysis, the
 * Gateway refusing the route.
 */
export const STALLS = [
  'deniedByAdmission',
  'unschedulable',
  'quotaExceeded',
  'probeFailing',
  'crashLoop',
  'slowAnalysis',
  'routeNotAccepted',
] as const;

export type Stall = (typeof STALLS)[number];

export function isStall(value: unknown): value is Stall {
  return STALLS.includes(value as Stall);
}

/** Stalls whose canary pods never become available: the Rollout waits at its first step until its progress deadline. */
const HOLDING_STALLS: ReadonlySet<Stall> = new Set([
  'deniedByAdmission',
  'unschedulable',
  'quotaExceeded',
  'probeFailing',
  'crashLoop',
]);

export function holdsCanary(stall: Stall | undefined): boolean {
  return stall !== undefined && HOLDING_STALLS.has(stall);
}

/** Stalls whose canary ReplicaSet cannot create its pods at all (the API server refuses them). */
export function refusesPods(stall: Stall | undefined): boolean {
  return stall === 'deniedByAdmission' || stall === 'quotaExceeded';
}

/** spec.progressDeadlineSeconds, in canary steps: how long a canary may stay unavailable before the Rollout is Degraded. */
export const PROGRESS_DEADLINE_STEPS = 2;

/** Measurements a slow analysis takes before the canary moves on. */
export const SLOW_ANALYSIS_MEASUREMENTS = 5;
/**
 * Canary steps between two of its measurements: the window a reader has to
 * see it waiting is 15 steps (15 s at the tests' 1 s steps; at one step per
 * measurement, 5 s were missed on a loaded 2-core machine).
 */
export const SLOW_ANALYSIS_STEPS_PER_MEASUREMENT = 3;
