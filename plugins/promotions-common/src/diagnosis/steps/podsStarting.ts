import type { Diagnosis } from '../diagnosisTypes';
import { DeploymentFacts, SYNCED_STEP } from './facts';

/** Policy verdict → applied: the new pods are still starting. */
export function podsStarting(facts: DeploymentFacts): Diagnosis | undefined {
  const { healthStatus, healthMessage } = facts;
  if (healthStatus !== 'Progressing' && healthStatus !== 'Missing')
    return undefined;
  return {
    state: 'in-progress',
    code: 'syncing',
    lastCompletedStep: SYNCED_STEP,
    likelyCause: `ArgoCD synced the new Release; ${facts.healthOf} is ${healthStatus} while the new pods start${healthMessage ? `: ${healthMessage}` : ''}.`,
    whereToLook: [
      ...facts.rolloutLook,
      { label: `kubectl get pods -n ${facts.namespace}` },
      ...facts.appLink,
      ...facts.prLink,
    ],
  };
}
