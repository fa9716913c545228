import { formatSeconds } from '../../argo/canaryState';
import { actorNameWithoutCatalog } from '../../people/actorNames';
import { isLivePromotion } from '../../promotions/livePromotion';
import type { Diagnosis, DiagnosisLink } from '../diagnosisTypes';
import { secondsSince, StageFacts } from './facts';

function approverText(approvers: string[]): string {
  return approvers.length
    ? `members of ${approvers.map(actorNameWithoutCatalog).join(', ')}`
    : 'no approver group is configured for this product';
}

/**
 * Request rollout, the git side: a promotion PR that has not merged yet (its checks, its
 * approval, the Gate's merge), or whose opening failed.
 */
export function promotionPullRequest(facts: StageFacts): Diagnosis | undefined {
  const { input, thresholds, prLink } = facts;
  const { promotion, stage, now } = input;
  if (!promotion) return undefined;
  if (!isLivePromotion(promotion.status) && promotion.status !== 'failed') {
    return undefined;
  }
  const description = promotion.healthDescription;
  const waited = secondsSince(promotion.since, now);
  const opened = `PR opened by ${actorNameWithoutCatalog(promotion.requestedBy)}`;
  const sourceLook: DiagnosisLink = {
    label: 'The source stage on the promotion ladder (its failing checks)',
  };

  if (promotion.status === 'failed' || promotion.healthState === 'failure') {
    return {
      state: 'stuck',
      code: 'checks-failing',
      lastCompletedStep: opened,
      likelyCause:
        promotion.status === 'failed'
          ? `The promotion failed${description ? `: ${description}` : ''}. Request it again once the cause is fixed.`
          : `The PR's health check fails because the source is not healthy${description ? `: ${description}` : ''}. It merges once the source runs the digest healthy again.`,
      whereToLook: [
        ...prLink,
        sourceLook,
        { label: 'The promotions/health status on the PR head commit' },
      ],
    };
  }

  if (promotion.status === 'awaiting-approval') {
    const stuck =
      waited !== undefined && waited > thresholds.approvalWaitSeconds;
    const pending =
      promotion.healthState === 'success'
        ? ''
        : ` Its health check is ${promotion.healthState ?? 'not reported'} yet${description ? ` (${description})` : ''}.`;
    const wait = waited !== undefined ? ` for ${formatSeconds(waited)}` : '';
    return {
      state: stuck ? 'stuck' : 'in-progress',
      code: 'awaiting-approval',
      lastCompletedStep:
        promotion.healthState === 'success' ? 'PR checks passed' : opened,
      likelyCause: `The PR into ${stage} is waiting${wait} for a release-approver: ${approverText(input.approvers)}.${pending}${stuck ? ' Worth a reminder to an approver.' : ''}`,
      whereToLook: [
        ...prLink,
        ...input.approvers.map(group => ({
          label: `Approvers: ${actorNameWithoutCatalog(group)}`,
        })),
      ],
    };
  }

  // open (merges automatically) or approved: the Gate merges once the health check passes.
  const approved = promotion.status === 'approved';
  const step = approved ? 'PR approved' : opened;
  if (promotion.healthState === 'success') {
    return {
      state: 'in-progress',
      code: 'checks-pending',
      lastCompletedStep: approved ? step : 'PR checks passed',
      likelyCause: `The PR's checks passed${approved ? ' and it is approved' : ''}; the Gate merges it on its next run.`,
      whereToLook: [...prLink],
    };
  }
  return {
    state: 'in-progress',
    code: 'checks-pending',
    lastCompletedStep: step,
    likelyCause: `The PR's health check is pending: the Gate merges it once the source runs the digest Synced and Healthy${description ? ` (${description})` : ''}.`,
    whereToLook: [...prLink, sourceLook],
  };
}
