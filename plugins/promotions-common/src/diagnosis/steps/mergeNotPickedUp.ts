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
  const { mergeMs, reconciledMs, sinceMerge } = facts;
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
  return notPickedUp(facts, sinceMerge);
}

/**
 * The same, when ArgoCD's only sign of having read the merge is a reconcile in the merge's
 * own second (its times have whole seconds): it may have come just before the merge. While
 * the merge is recent, that is read as not picked up yet rather than as a stall.
 */
export function mergeMaybeNotPickedUp(
  facts: DeploymentFacts,
): Diagnosis | undefined {
  const { mergeMs, reconciledMs, sinceMerge } = facts;
  if (
    facts.runningReleased ||
    facts.input.releaseApplied === true ||
    facts.syncedAfterMerge ||
    sinceMerge === undefined ||
    sinceMerge > facts.thresholds.syncStuckSeconds ||
    reconciledMs === undefined ||
    reconciledMs !== mergeMs
  ) {
    return undefined;
  }
  return notPickedUp(facts, sinceMerge);
}

function notPickedUp(facts: DeploymentFacts, sinceMerge: number): Diagnosis {
  const { appName } = facts;
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
