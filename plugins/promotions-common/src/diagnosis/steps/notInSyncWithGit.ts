import { formatSeconds } from '../../argo/canaryState';
import { gitComparison } from '../../health/argoFacts';
import type { Diagnosis } from '../diagnosisTypes';
import type { DeploymentFacts } from './facts';

/**
 * Resolve digest, in git: the Application is not in sync with the Release on main, or ArgoCD
 * could not compare it with git at all. An OutOfSync that is not about the Release is left to
 * `outOfSyncWithoutChange`, once nothing worse is found.
 */
export function notInSyncWithGit(
  facts: DeploymentFacts,
): Diagnosis | undefined {
  const { application, appName, sinceMerge, thresholds, input } = facts;
  const syncStatus = application.syncStatus;
  const comparison = gitComparison(syncStatus);
  if (comparison === 'synced' || facts.outOfSyncWithoutChange) return undefined;
  if (comparison === 'out-of-sync') {
    const stuck =
      sinceMerge === undefined
        ? false
        : sinceMerge > thresholds.syncStuckSeconds;
    const when =
      sinceMerge === undefined
        ? ''
        : ` ${formatSeconds(sinceMerge)} after the merge`;
    return {
      state: stuck ? 'stuck' : 'in-progress',
      code: 'merged-out-of-sync',
      lastCompletedStep: facts.mergedStep,
      likelyCause: stuck
        ? `${appName} is still OutOfSync${when}: ArgoCD has not synced the new Release. Auto-sync may be off or blocked by a sync window, or ArgoCD has not refreshed from git — sync or refresh the Application and read its conditions.`
        : `ArgoCD has not synced the new Release yet (OutOfSync${when}); it usually does within a few minutes.`,
      whereToLook: [
        ...facts.appLink,
        { label: `argocd app get ${appName} --refresh` },
        { label: `The Release file ${input.releasePath}` },
        ...facts.prLink,
      ],
    };
  }
  // `Unknown` (or no status): ArgoCD could not compare the Application with git.
  return {
    state: 'stuck',
    code: 'merged-out-of-sync',
    lastCompletedStep: facts.mergedStep,
    likelyCause: `ArgoCD could not compare ${appName} with git (sync status ${syncStatus ?? 'not reported'}): usually a manifest generation error (the kustomize overlay, or repo access). The Application's conditions say which.${application.healthMessage ? ` ${application.healthMessage}` : ''}`,
    whereToLook: [
      ...facts.appLink,
      {
        label: `The Application's conditions: kubectl get application ${appName} -n argocd -o yaml`,
      },
      {
        label: `The overlay the Application's source path points at, for ${input.releasePath}`,
      },
      ...facts.prLink,
    ],
  };
}
