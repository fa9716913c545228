import { LoggerService } from '@backstage/backend-plugin-api';
import type { PlatformRepo, PullRequestInfo } from '@refplat/plugin-promotions-node';
import { PromotionRecord, PromotionStore } from '../database/PromotionStore';
import { applyLifecycleEvent } from './PromotionLifecycle';
import { recordGateDecision, recordOpenToMerge } from '../telemetry/promotionsMetrics';

/**
 * How a promotion's PR ends, written once for the single-Product Gate and the
 * fleet Gate: both record the same events and the same metrics.
 */

export const GATE_ACTOR = 'promotions-gate';

interface SettlementDeps {
  store: PromotionStore;
  logger: LoggerService;
}

/** A PR merged or closed by hand on GitHub ends the promotion; true when it did. */
export async function settleFromGitHub(deps: SettlementDeps, promotion: PromotionRecord, pr: PullRequestInfo): Promise<boolean> {
  if (pr.merged) {
    const merged = await applyLifecycleEvent(deps.store, promotion.id, 'merged-on-github', {
      changes: { statusReason: `Merged on GitHub${pr.mergedBy ? ` by ${pr.mergedBy}` : ''}` },
      audit: { type: 'merged', actor: pr.mergedBy ?? 'github', detail: pr.url },
    });
    if (merged) await measureOpenToMerge(deps, merged, 'github');
    return true;
  }
  if (pr.state === 'closed') {
    await applyLifecycleEvent(deps.store, promotion.id, 'closed-on-github', {
      changes: { statusReason: 'Pull request closed on GitHub' },
      audit: { type: 'closed', actor: 'github', detail: pr.url },
    });
    return true;
  }
  return false;
}

/** Records the Gate's merge at `sha`, counted and timed; undefined when the promotion had ended meanwhile. */
export async function recordMergeByGate(deps: SettlementDeps, promotion: PromotionRecord, sha: string | undefined) {
  const merged = await applyLifecycleEvent(deps.store, promotion.id, 'merged-by-gate', {
    changes: { statusReason: undefined },
    audit: { type: 'merged', actor: GATE_ACTOR, detail: sha },
  });
  if (merged) {
    recordGateDecision('merge');
    await measureOpenToMerge(deps, merged, 'gate');
  }
  return merged;
}

/**
 * The time from the PR's opening (its trail's `pr-opened`) to the merge just
 * recorded. Best-effort: a trail that cannot be read costs the measurement, not the merge's cleanup.
 */
async function measureOpenToMerge(deps: SettlementDeps, merged: PromotionRecord, mergedBy: 'gate' | 'github') {
  try {
    const opened = (await deps.store.listEvents(merged.id)).filter(event => event.type === 'pr-opened').at(-1);
    if (!opened) return;
    const seconds = (Date.parse(merged.updatedAt) - Date.parse(opened.at)) / 1000;
    recordOpenToMerge(seconds, { kind: merged.kind ?? 'promotion', mergedBy });
  } catch (error) {
    deps.logger.warn(`Could not measure how long PR #${merged.pullRequest.number} was open: ${error}`);
  }
}

/** Best-effort: a branch left behind is deleted by the reconciler after its grace period. */
export async function deleteBranchOrLeaveIt(deps: { writer: Pick<PlatformRepo, 'deleteBranch'>; logger: LoggerService }, branch: string) {
  await deps.writer.deleteBranch(branch).catch(error => deps.logger.warn(`Could not delete branch ${branch}: ${error}`));
}
