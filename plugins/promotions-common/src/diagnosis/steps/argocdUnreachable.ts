import type { Diagnosis, DiagnosisLink } from '../diagnosisTypes';
import type { ReleaseFacts } from './facts';

const ARGOCD_UNREACHABLE_LOOK: DiagnosisLink[] = [
  {
    label:
      'The ArgoCD instance and its API (is it up, and reachable from Backstage?)',
  },
  { label: "The promotions backend's ArgoCD credentials and its logs" },
];

/**
 * The controller (ArgoCD) holds the release state: when it cannot be asked, nothing can be said
 * about the hops after the merge.
 */
export function argocdUnreachable(facts: ReleaseFacts): Diagnosis | undefined {
  const unreachable = facts.input.application?.unreachable;
  if (unreachable === undefined) return undefined;
  return {
    state: 'unknown',
    code: 'argocd-unreachable',
    lastCompletedStep: facts.mergedStep,
    likelyCause: `ArgoCD (or the cluster) could not be asked, so nothing can be said about the deployment yet: ${unreachable}`,
    whereToLook: [
      ...facts.appLink,
      ...ARGOCD_UNREACHABLE_LOOK,
      ...facts.prLink,
    ],
  };
}
