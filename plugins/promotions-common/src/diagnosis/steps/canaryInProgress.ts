import { CanaryState, formatSeconds } from '../../argo/canaryState';
import { hasCanarySteps } from '../../health/argoFacts';
import type { Diagnosis, DiagnosisLink } from '../diagnosisTypes';
import { canaryStepText, DeploymentFacts } from './facts';

const READINESS_LOOK: DiagnosisLink = {
  label: "The service's readiness endpoint and its error rate",
};

/**
 * Apply canary → no scale-up: a canary in progress. Seed 000's most misread row: a canary
 * sitting at a step with healthy probes is usually soaking, not stuck; it is stuck only once
 * its pause has run over by more than the threshold, or a person has not decided in time.
 */
export function canaryInProgress(
  facts: DeploymentFacts,
): Diagnosis | undefined {
  const { canary, service } = facts.input;
  if (!hasCanarySteps(canary) || canary.complete) return undefined;
  const promote: DiagnosisLink = {
    label: `kubectl argo rollouts promote ${service} -n ${facts.namespace}`,
  };
  const at = { lastCompletedStep: canaryStepText(canary) };
  const look = [...facts.rolloutLook, ...facts.appLink];

  if (!canary.paused) {
    return {
      ...at,
      state: 'in-progress',
      code: 'canary-soaking',
      likelyCause: `The canary is progressing at ${canary.weight}% of traffic (step ${canary.currentStep} of ${canary.totalSteps}): waiting for pods to become ready or for its analysis.`,
      whereToLook: [...look, READINESS_LOOK],
    };
  }
  const pausedFor = canary.pausedForSeconds;
  const duration = canary.pauseDurationSeconds;

  // An indefinite pause (`pause: {}`), an inconclusive analysis or a manual pause: a person decides.
  if (duration === undefined) {
    const stuck =
      pausedFor !== undefined &&
      pausedFor > facts.thresholds.canaryStuckSeconds;
    return {
      ...at,
      state: stuck ? 'stuck' : 'in-progress',
      code: stuck ? 'canary-stuck' : 'canary-soaking',
      likelyCause: `The canary is paused at ${canary.weight}% of traffic${pausedFor !== undefined ? ` for ${formatSeconds(pausedFor)}` : ''} on an indefinite pause: ${whoDecides(canary, service)}.`,
      whereToLook: [promote, ...look],
    };
  }
  if (pausedFor === undefined) {
    return {
      ...at,
      state: 'in-progress',
      code: 'canary-soaking',
      likelyCause: `The canary at ${canary.weight}% of traffic is usually soaking, not stuck: ${formatSeconds(duration)} pause (since when is not reported).`,
      whereToLook: look,
    };
  }
  if (pausedFor <= duration) {
    return {
      ...at,
      state: 'in-progress',
      code: 'canary-soaking',
      likelyCause: `The canary at ${canary.weight}% of traffic is usually soaking, not stuck: ${formatSeconds(duration)} pause, ${formatSeconds(canary.pauseRemainingSeconds ?? duration - pausedFor)} left.`,
      whereToLook: [...look, READINESS_LOOK],
    };
  }
  const over = pausedFor - duration;
  if (over <= facts.thresholds.canaryStuckSeconds) {
    return {
      ...at,
      state: 'in-progress',
      code: 'canary-soaking',
      likelyCause: `The canary at ${canary.weight}% of traffic is usually soaking, not stuck: the ${formatSeconds(duration)} pause ended ${formatSeconds(over)} ago; the Rollouts controller moves on at its next reconcile.`,
      whereToLook: look,
    };
  }
  return {
    ...at,
    state: 'stuck',
    code: 'canary-stuck',
    likelyCause: `The canary has been paused for ${formatSeconds(pausedFor)}, ${formatSeconds(over)} longer than its ${formatSeconds(duration)} pause: the Rollouts controller did not resume it. Check the controller, or promote it by hand: kubectl argo rollouts promote ${service}.`,
    whereToLook: [
      ...facts.rolloutLook,
      {
        label:
          'The Argo Rollouts controller logs (kubectl logs -n argo-rollouts deploy/argo-rollouts)',
      },
      promote,
      ...facts.appLink,
    ],
  };
}

/** On an indefinite pause, who moves the canary on. */
function whoDecides(canary: CanaryState, service: string): string {
  return /^Inconclusive/.test(canary.pauseReason ?? '')
    ? `its analysis was inconclusive (${canary.pauseReason}), so it waits for a person to promote or abort it`
    : `waiting for a manual promote: kubectl argo rollouts promote ${service}`;
}
