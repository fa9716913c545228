import { ApplicationState } from './applicationState';
import { RolloutState } from './rolloutState';

/**
 * Everything of a Rollout's state that shows in its object. A change of it is a
 * write to the API server, which gives the object a new resourceVersion.
 */
export function rolloutWriteKey(rollout: RolloutState): string {
  return JSON.stringify([
    rollout.generation,
    rollout.revision,
    rollout.stableDigest,
    rollout.desiredDigest,
    rollout.canary?.stepIndex,
    rollout.canary?.stepsWaited,
    rollout.canary?.timedOutAt,
    rollout.stall,
    rollout.abortedAt,
    rollout.phaseChangedAt,
  ]);
}

/**
 * Everything of an Application's state that shows in its object, its Rollouts
 * included (their keys, from rolloutWriteKey: the caller has them already):
 * Argo CD refreshes an Application whenever one of its resources changes, and
 * every refresh writes status.reconciledAt.
 */
export function applicationWriteKey(app: ApplicationState, rolloutKeys: string[]): string {
  return JSON.stringify([
    app.syncStatus,
    app.comparedRevision,
    app.specDigests,
    app.targetDigests,
    app.appliedDigests,
    app.comparisonError,
    app.operation,
    app.history[app.history.length - 1]?.id,
    app.overrides,
    app.healthChangedAt,
    rolloutKeys,
  ]);
}
