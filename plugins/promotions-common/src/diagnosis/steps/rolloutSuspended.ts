import type { Diagnosis } from '../diagnosisTypes';
import { DeploymentFacts, SYNCED_STEP } from './facts';

/**
 * Apply canary, without canary details: a Suspended Rollout is paused, usually a canary
 * soaking, not stuck.
 */
export function rolloutSuspended(
  facts: DeploymentFacts,
): Diagnosis | undefined {
  const { healthStatus, healthMessage, input } = facts;
  if (input.canary || healthStatus !== 'Suspended') return undefined;
  return {
    state: 'in-progress',
    code: 'canary-soaking',
    lastCompletedStep: SYNCED_STEP,
    likelyCause: `The Rollout of ${input.service} is paused (${facts.healthOf} is Suspended): usually a canary soaking, not stuck.${healthMessage ? ` ${healthMessage}` : ''}`,
    whereToLook: [...facts.rolloutLook, ...facts.appLink, ...facts.prLink],
  };
}
