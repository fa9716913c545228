import { SERVER_SIDE_DIFF_ANNOTATION } from '../diagnosisTypes';
import type { Diagnosis } from '../diagnosisTypes';
import { DeploymentFacts, SYNCED_STEP } from './facts';

/**
 * Serving, yet OutOfSync: the Release is live and healthy, but ArgoCD's client-side diff keeps
 * seeing a difference that is not there.
 */
export function outOfSyncWithoutChange(
  facts: DeploymentFacts,
): Diagnosis | undefined {
  if (!facts.outOfSyncWithoutChange) return undefined;
  const { appName } = facts;
  return {
    state: 'stuck',
    code: 'out-of-sync-no-change',
    lastCompletedStep: SYNCED_STEP,
    likelyCause: `${appName} stays OutOfSync although nothing changed (the Release is already live): ArgoCD's client-side diff sees a difference that is not there (defaulted fields, mutating webhooks); enable server-side diff (\`${SERVER_SIDE_DIFF_ANNOTATION}\`) or ignoreDifferences.`,
    whereToLook: [
      ...facts.appLink,
      { label: `argocd app diff ${appName}` },
      {
        label: `The Application's annotations: ${SERVER_SIDE_DIFF_ANNOTATION}`,
      },
      { label: 'The ApplicationSet template: ignoreDifferences' },
    ],
  };
}
