import { formatSeconds } from '../../argo/canaryState';
import { shortDigestText } from '../../health/format';
import type { Diagnosis } from '../diagnosisTypes';
import { DeploymentFacts, SYNCED_STEP } from './facts';

/**
 * Resolve digest → another digest: synced and settled, but the service does not run the
 * released digest: a tag/digest mismatch, or the wrong environment was targeted.
 *
 * Not while the Release changed lately and no sync has finished since: ArgoCD reads a merge
 * one refresh before it compares and syncs it, and until then it reports the last sync's
 * Synced with the old digest (a restore's merge read one second later looked exactly so).
 */
export function wrongDigestRunning(
  facts: DeploymentFacts,
): Diagnosis | undefined {
  if (facts.runningReleased) return undefined;
  const { input, released, sinceMerge, thresholds } = facts;
  if (!facts.syncedAfterMerge && sinceMerge !== undefined && sinceMerge <= thresholds.syncStuckSeconds) {
    return {
      state: 'in-progress',
      code: 'merged-out-of-sync',
      lastCompletedStep: facts.mergedStep,
      likelyCause: `ArgoCD has not synced the new Release yet (it changed ${formatSeconds(sinceMerge)} ago, and ${input.service} still runs the digest before it); it usually does within a few minutes.`,
      whereToLook: [...facts.appLink, { label: `The Release file ${input.releasePath}` }, ...facts.prLink],
    };
  }
  const { service, releasePath } = input;
  const running = input.runningDigests.length
    ? input.runningDigests.map(shortDigestText).join(', ')
    : 'no digest ArgoCD reports';
  return {
    state: 'stuck',
    code: 'wrong-digest-running',
    lastCompletedStep: SYNCED_STEP,
    likelyCause: `ArgoCD synced, but ${service} runs ${running} while the Release names ${shortDigestText(released)}: a tag/digest mismatch (the image reference in the overlay does not take the Release's digest), or the wrong environment was targeted (the Application's source path or the ApplicationSet does not point at ${releasePath}).`,
    whereToLook: [
      ...facts.appLink,
      {
        label: `The image reference for ${service} in the overlay (its name must match the one the Release digest is injected for)`,
      },
      {
        label: `The Application's source path vs the Release path ${releasePath}`,
      },
      { label: `The Release file ${releasePath}` },
      ...facts.prLink,
    ],
  };
}
