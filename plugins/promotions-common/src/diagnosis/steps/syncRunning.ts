import { syncOperationState } from '../../health/argoFacts';
import type { Diagnosis } from '../diagnosisTypes';
import type { DeploymentFacts } from './facts';

/** Submit workload, in progress: a sync operation is running right now. */
export function syncRunning(facts: DeploymentFacts): Diagnosis | undefined {
  const { application, appName } = facts;
  const phase = application.operationPhase;
  if (syncOperationState(phase) !== 'running') return undefined;
  return {
    state: 'in-progress',
    code: 'syncing',
    lastCompletedStep: facts.mergedStep,
    likelyCause: `ArgoCD is syncing ${appName} (operation ${phase}${application.operationMessage ? `: ${application.operationMessage}` : ''}); wait for it to finish.`,
    whereToLook: [...facts.appLink, ...facts.rolloutLook, ...facts.prLink],
  };
}
