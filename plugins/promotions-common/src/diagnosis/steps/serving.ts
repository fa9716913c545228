import { hasCanarySteps } from '../../health/argoFacts';
import { shortDigestText } from '../../health/format';
import type { Diagnosis } from '../diagnosisTypes';
import type { DeploymentFacts } from './facts';

/** The last hop: every hop before it completed, and the service serves the released digest. */
export function serving(facts: DeploymentFacts): Diagnosis {
  const { input, released } = facts;
  const digest = shortDigestText(released);
  return {
    state: 'ok',
    code: 'healthy',
    lastCompletedStep: hasCanarySteps(input.canary)
      ? `Canary complete; serving ${digest}`
      : `Serving ${digest}`,
    likelyCause: `Nothing is stuck: ${input.service} in ${input.stage} is Synced, Healthy and runs the released ${digest}.`,
    whereToLook: [...facts.appLink, ...facts.prLink],
  };
}
