import { formatSeconds } from '../../argo/canaryState';
import type { Diagnosis } from '../diagnosisTypes';
import type { ReleaseFacts } from './facts';

/**
 * The controller's Application for the Release: the ApplicationSet generates one per Release
 * file; without it the Release reaches no cluster (or the wrong environment was targeted).
 */
export function applicationNotGenerated(facts: ReleaseFacts): Diagnosis {
  const { input, sinceMerge, thresholds, mergedStep, prLink } = facts;
  const app = input.application;
  const fresh =
    sinceMerge !== undefined && sinceMerge <= thresholds.syncStuckSeconds;
  const name = app?.name
    ? `Application ${app.name}`
    : "the stage's Application";
  return {
    state: fresh ? 'in-progress' : 'stuck',
    code: 'application-missing',
    lastCompletedStep: mergedStep,
    likelyCause: fresh
      ? `The ApplicationSet has not generated ${name} yet (the Release changed ${formatSeconds(sinceMerge)} ago; its git generator polls every few minutes). If it does not appear, check the Release path \`${input.releasePath}\` matches the generator's files pattern and that the Environment exists.`
      : `The ApplicationSet has not generated ${name}: check the Release path \`${input.releasePath}\` matches the generator's files pattern and that the Environment exists.`,
    whereToLook: [
      { label: `The Release file ${input.releasePath}` },
      {
        label:
          "The ApplicationSet's git files generator pattern: kubectl get applicationsets -n argocd -o yaml",
      },
      {
        label: `The Environment ${app?.name ?? `for ${input.stage}`}: does it exist and is it Ready?`,
      },
      {
        label:
          'The ApplicationSet controller logs (kubectl logs -n argocd deploy/argocd-applicationset-controller)',
      },
      ...prLink,
    ],
  };
}
