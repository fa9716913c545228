import type { Diagnosis } from '../diagnosisTypes';
import type { StageFacts } from './facts';

/**
 * Resolve digest, when the Release record names none for the service: there is nothing to
 * deploy, so nothing can be stuck.
 */
export function nothingReleased({ input, prLink }: StageFacts): Diagnosis {
  const { service, stage } = input;
  return {
    state: 'ok',
    code: 'healthy',
    lastCompletedStep: `Nothing released to ${stage}`,
    likelyCause: `${service} is not released to ${stage}: its Release record names no digest for it, so there is nothing to deploy. Promote it from the stage below.`,
    whereToLook: [
      ...prLink,
      { label: `The Release file ${input.releasePath}` },
    ],
  };
}
