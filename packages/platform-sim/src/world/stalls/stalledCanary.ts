import { imageFor } from '../../seed/digests';
import { CanaryPlan, RolloutState } from '../rolloutState';
import { holdsCanary, Stall } from './stall';

/** The node a stalled canary pod was scheduled to (the kubelet that reports about it). */
export const CANARY_NODE = 'ip-10-0-42-17.eu-west-1.compute.internal';

/** A canary that a stall holds back, with how long it has been held. */
export interface StalledCanary {
  stall: Stall;
  namespace: string;
  /** The container's name: the service's. */
  container: string;
  image: string;
  /** When the canary started (the sync that applied the digest). */
  since: number;
  /** When the stall last showed (an event repeated, a probe failed, a container restarted). */
  lastAt: number;
  /** How often it showed so far. */
  repeats: number;
}

/** The stall of a Rollout's running canary, if one holds it back (its pods never become available). */
export function stalledCanaryOf(
  rollout: RolloutState,
  plan: CanaryPlan,
): StalledCanary | undefined {
  const { canary, stall } = rollout;
  if (!canary || !stall || !holdsCanary(stall)) return undefined;
  const waited = canary.stepsWaited ?? 0;
  return {
    stall,
    namespace: rollout.namespace,
    container: rollout.name,
    image: imageFor(rollout.repository, rollout.desiredDigest),
    since: canary.stepStartedAt,
    lastAt: canary.stepStartedAt + waited * plan.stepMs,
    repeats: waited + 1,
  };
}
