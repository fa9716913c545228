import type { CanaryState } from '../argo/canaryState';

/**
 * Facts both readers of ArgoCD's answers need: the health rules (`evaluateServiceHealth`) from
 * the Application and the Rollout, the diagnosis (`diagnose`) from what the ladder kept of them.
 * Read here once so the two never disagree on what ArgoCD said.
 */

/**
 * Where ArgoCD's last sync operation (`status.operationState.phase`) stands: still `running`
 * (`Running`, `Terminating`), `failed` or `errored` (`Failed`, `Error`), or `settled` (it
 * succeeded, or there is none).
 */
export type SyncOperationState = 'running' | 'failed' | 'errored' | 'settled';

export function syncOperationState(
  phase: string | undefined,
): SyncOperationState {
  if (phase === 'Running' || phase === 'Terminating') return 'running';
  if (phase === 'Failed') return 'failed';
  if (phase === 'Error') return 'errored';
  return 'settled';
}

/** The last sync did not apply: it `failed` or `errored`. */
export function syncDidNotApply(
  state: SyncOperationState,
): state is 'failed' | 'errored' {
  return state === 'failed' || state === 'errored';
}

/**
 * How the Application compares with git (`status.sync.status`): `synced`, `out-of-sync`, or
 * `not-compared` (`Unknown`, or none reported: ArgoCD could not compare it at all).
 */
export type GitComparison = 'synced' | 'out-of-sync' | 'not-compared';

export function gitComparison(syncStatus: string | undefined): GitComparison {
  if (syncStatus === 'Synced') return 'synced';
  if (syncStatus === 'OutOfSync') return 'out-of-sync';
  return 'not-compared';
}

/** Does one of the running digests equal `digest`? Digests are hex, whatever their case. */
export function runsDigest(
  runningDigests: readonly string[],
  digest: string,
): boolean {
  const wanted = digest.toLowerCase();
  return runningDigests.some(running => running.toLowerCase() === wanted);
}

/**
 * A Rollout with canary steps: only then do its step and weight say anything (a Rollout
 * without steps replaces its pods at once).
 */
export function hasCanarySteps(
  canary: CanaryState | undefined,
): canary is CanaryState {
  return canary !== undefined && canary.totalSteps > 0;
}
