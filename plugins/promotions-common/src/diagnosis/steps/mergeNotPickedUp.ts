import { formatSeconds } from '../../argo/canaryState';
import type { Diagnosis } from '../diagnosisTypes';
import type { DeploymentFacts } from './facts';

/**
 * Resolve digest, not yet read: Synced, but ArgoCD has not compared with git since the Release
 * changed (and the service does not run the released digest), so it has not picked the merge up.
 */
export function mergeNotPickedUp(
  facts: DeploymentFacts,
): Diagnosis | undefined {
  const { mergeMs, reconciledMs, sinceMerge, appName } = facts;
  if (
    facts.runningReleased ||
    facts.input.releaseApplied === true ||
    mergeMs === undefined ||
    sinceMerge === undefined ||
    (reconciledMs !== undefined && reconciledMs >= mergeMs) ||
    facts.syncedAfterMerge
  ) {
    return undefined;
  }
  const stuck = sinceMerge > facts.thresholds.syncStuckSeconds;
  return {
    state: stuck ? 'stuck' : 'in-progress',
    code: 'merged-out-of-sync',
    lastCompletedStep: facts.mergedStep,
    likelyCause: stuck
      ? `ArgoCD has not looked at git since the Release changed ${formatSeconds(sinceMerge)} ago (last reconciled ${facts.application.reconciledAt ?? 'never'}): refresh ${appName}, and check the repo webhook and the controller.`
      : `ArgoCD has not picked up the merge yet (the Release changed ${formatSeconds(sinceMerge)} ago); it polls git every few minutes.`,
    whereToLook: [
      ...facts.appLink,
      { label: `argocd app get ${appName} --refresh` },
      { label: `The Release file ${facts.input.releasePath}` },
      ...facts.prLink,
    ],
  };
}
