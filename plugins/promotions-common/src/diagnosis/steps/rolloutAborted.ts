import type { Diagnosis } from '../diagnosisTypes';
import { DeploymentFacts, SYNCED_STEP } from './facts';

/**
 * Apply canary → aborted: the Rollout's analysis failed, and the old digest keeps serving. Read
 * from the canary, else from the health message when no canary state was given.
 */
export function rolloutAborted(facts: DeploymentFacts): Diagnosis | undefined {
  const { canary, service } = facts.input;
  const { healthMessage, namespace } = facts;
  const aborted =
    canary?.aborted === true ||
    (healthMessage !== undefined &&
      /\baborted?\b|RolloutAborted/i.test(healthMessage));
  if (!aborted) return undefined;
  const message = canary?.message ?? healthMessage;
  return {
    state: 'stuck',
    code: 'rollout-aborted',
    lastCompletedStep: SYNCED_STEP,
    likelyCause: `The Rollout of ${service} was aborted — usually its analysis failed${message ? ` (${message})` : ''}. The old digest keeps serving; fix the problem and push a new digest, or roll back the Release.`,
    whereToLook: [
      ...facts.rolloutLook,
      {
        label: `The failed AnalysisRun: kubectl get analysisruns -n ${namespace}`,
      },
      ...facts.appLink,
      { label: "The service's error rate and latency during the canary" },
      ...facts.prLink,
    ],
  };
}
