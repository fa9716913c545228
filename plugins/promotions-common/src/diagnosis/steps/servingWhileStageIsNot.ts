import { shortDigestText } from '../../health/format';
import type { Diagnosis } from '../diagnosisTypes';
import type { ReleaseFacts } from './facts';

/**
 * Serving, by the service's own resources, while another service of the stage is not: the
 * Application's shared state is about that other service, so it is not read for this one.
 */
export function servingWhileStageIsNot(
  facts: ReleaseFacts,
): Diagnosis | undefined {
  const { input, released, appLink, prLink } = facts;
  const { service, stage } = input;
  if (!input.serviceHealthy || input.stageHealthy !== false) return undefined;
  return {
    state: 'ok',
    code: 'healthy',
    lastCompletedStep: `Serving ${shortDigestText(released)}`,
    likelyCause: `Nothing is stuck for ${service} in ${stage}: its Rollout is Healthy and runs the released ${shortDigestText(released)}. The Application's state reflects another service of ${stage}.`,
    whereToLook: [...appLink, ...prLink],
  };
}
