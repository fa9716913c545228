import { firstStalledHop } from '../hops/diagnoseHops';
import type { Hop, HopLook } from '../hops/hopTypes';
import type { Diagnosis, DiagnosisLink } from '../diagnosisTypes';
import { DeploymentFacts, SYNCED_STEP } from './facts';

/** The hop, said as the step that completed when it did. */
const COMPLETED_STEP: Record<Hop, string> = {
  registry: 'The registry has the digest',
  admission: 'Admission let the pods in',
  scheduling: 'The pods were scheduled',
  'image-pull': 'The image was pulled',
  probes: 'The pods are ready',
  'analysis-window': 'The analysis passed',
  route: 'The route is accepted',
};

function lookLink(look: HopLook): DiagnosisLink {
  return look.href ? { label: look.text, url: look.href } : { label: look.text };
}

/**
 * After the sync, in the cluster: where the caller read the hops' evidence, the first hop that
 * stalled is the reason, in the words of the object that says so (an event, a PolicyReport, an
 * AnalysisRun, an HTTPRoute) instead of a guess from the health message.
 */
export function stalledHop(facts: DeploymentFacts): Diagnosis | undefined {
  if (!facts.hops) return undefined;
  const stall = firstStalledHop(facts.hops);
  if (!stall) return undefined;
  const { stalled, lastCompleted } = stall;
  return {
    state: 'stuck',
    code: 'hop-stalled',
    lastCompletedStep: lastCompleted ? COMPLETED_STEP[lastCompleted.hop] : SYNCED_STEP,
    likelyCause: stalled.evidence ?? `The rollout stalled at the ${stalled.hop} hop.`,
    whereToLook: [
      ...(stalled.lookAt ? [lookLink(stalled.lookAt)] : []),
      ...facts.rolloutLook,
      ...facts.appLink,
      ...facts.prLink,
    ],
  };
}
