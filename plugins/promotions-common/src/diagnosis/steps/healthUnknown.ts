import type { Diagnosis } from '../diagnosisTypes';
import { DeploymentFacts, SYNCED_STEP } from './facts';

/** Serving, unconfirmed: ArgoCD answered but cannot tell the service's health. */
export function healthUnknown(facts: DeploymentFacts): Diagnosis | undefined {
  const { healthStatus, healthMessage, input } = facts;
  if (healthStatus === 'Healthy') return undefined;
  return {
    state: 'unknown',
    code: 'argocd-unreachable',
    lastCompletedStep: SYNCED_STEP,
    likelyCause: `ArgoCD reports ${healthStatus ? `health ${healthStatus}` : 'no health'} for ${facts.healthOf}, so whether ${input.service} serves the new digest cannot be told${healthMessage ? `: ${healthMessage}` : ''}.`,
    whereToLook: [...facts.appLink, ...facts.rolloutLook, ...facts.prLink],
  };
}
