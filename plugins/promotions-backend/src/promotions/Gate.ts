import { LoggerService } from '@backstage/backend-plugin-api';
import { Ladder, shortDigest } from '@refplat/plugin-promotions-common';
import { PromotionRecord, PromotionStore } from '../database/PromotionStore';
import { PlatformRepoWriter, PullRequestInfo } from '../github/PlatformRepoWriter';
import { LadderService } from '../ladder/LadderService';
import { pullRequestTitle } from './pullRequestText';

export const HEALTH_CONTEXT = 'promotions/health';
const GATE_ACTOR = 'promotions-gate';

type HealthState = 'success' | 'pending' | 'failure';

interface SourceVerdict {
  state: HealthState;
  description: string;
  /** The source no longer runs what this promotion carries. */
  movedOn: boolean;
}

/** Is the source stage really running, healthy, what the promotion carries? */
export function judgeSource(ladder: Ladder, promotion: PromotionRecord): SourceVerdict {
  const source = ladder.stages.find(stage => stage.name === promotion.fromStage);
  if (!source) {
    return { state: 'failure', description: `Stage ${promotion.fromStage} is gone`, movedOn: true };
  }
  const problems: string[] = [];
  let state: HealthState = 'success';
  for (const [service, digest] of Object.entries(promotion.services)) {
    const cell = source.services[service];
    if (cell?.digest !== digest) {
      return {
        state: 'failure',
        description: `${promotion.fromStage} moved on: ${service} is now ${cell?.digest ? shortDigest(cell.digest) : 'not released'}`,
        movedOn: true,
      };
    }
    if (!cell.healthy) {
      problems.push(`${service}: ${cell.reasons[0] ?? cell.verdict}`);
      if (cell.verdict === 'unhealthy') state = 'failure';
      else if (state === 'success') state = 'pending';
    }
  }
  return {
    state,
    description:
      state === 'success'
        ? `${promotion.fromStage} is Synced, Healthy and running these digests`
        : `${promotion.fromStage} not ready: ${problems.join('; ')}`,
    movedOn: false,
  };
}

/** The audit event for a change of the published health, if it changed. */
function transitionEvent(previous: string | undefined, verdict: SourceVerdict) {
  if (verdict.state === previous || verdict.state === 'pending') return undefined;
  const type = verdict.state === 'success' ? ('checks-passed' as const) : ('checks-failed' as const);
  return { type, actor: GATE_ACTOR, detail: verdict.description };
}

/**
 * Moves open promotions forward: re-checks the source stage's health,
 * publishes it on the PR head, merges when allowed, and notices PRs merged
 * or closed by hand and targets changed under a PR.
 */
export class Gate {
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(
    private readonly options: {
      store: PromotionStore;
      writer: PlatformRepoWriter;
      ladder: LadderService;
      logger: LoggerService;
    },
  ) {}

  async checkAll(): Promise<void> {
    for (const promotion of await this.options.store.listLive()) {
      await this.check(promotion.id);
    }
  }

  /** Checks one promotion; concurrent calls for the same one share a run. */
  check(id: string): Promise<void> {
    const running = this.inFlight.get(id);
    if (running) return running;
    const run = this.checkById(id)
      .catch(error =>
        this.options.logger.warn(`Gate could not check promotion ${id}: ${error}`),
      )
      .finally(() => this.inFlight.delete(id));
    this.inFlight.set(id, run);
    return run;
  }

  private async checkById(id: string): Promise<void> {
    const promotion = await this.options.store.get(id);
    if (!promotion || !promotion.pullRequest.number) return;
    if (!['open', 'awaiting-approval', 'approved'].includes(promotion.status)) return;

    const { writer, ladder: ladderService } = this.options;
    const pr = await writer.getPullRequest(promotion.pullRequest.number);
    if (await this.settledOnGitHub(promotion, pr)) return;

    const ladder = await ladderService.getLadder({ team: promotion.team, product: promotion.product });
    const target = ladder.stages.find(stage => stage.name === promotion.toStage);
    if (target && promotion.baseBlobSha && target.release.blobSha !== promotion.baseBlobSha) {
      await this.close(promotion, pr, `${promotion.toStage}'s Release record changed on the base branch after this PR was opened; request the promotion again`);
      return;
    }

    // A rollback restores what already ran in the stage: no stage below to wait for.
    const verdict: SourceVerdict =
      promotion.kind === 'rollback'
        ? { state: 'success', description: `Rollback of ${promotion.toStage} to earlier digests`, movedOn: false }
        : judgeSource(ladder, promotion);
    await this.publishHealth(promotion, pr, verdict);
    if (verdict.movedOn) {
      await this.close(promotion, pr, verdict.description);
      return;
    }
    if (verdict.state !== 'success') return;
    if (target?.requiresApproval && promotion.status !== 'approved') return;
    await this.merge(promotion, pr);
  }

  /** PRs merged or closed by hand on GitHub end the promotion. */
  private async settledOnGitHub(promotion: PromotionRecord, pr: PullRequestInfo): Promise<boolean> {
    const { store } = this.options;
    if (pr.merged) {
      await store.update(
        promotion.id,
        { status: 'merged', statusReason: `Merged on GitHub${pr.mergedBy ? ` by ${pr.mergedBy}` : ''}` },
        { type: 'merged', actor: pr.mergedBy ?? 'github', detail: pr.url },
      );
      return true;
    }
    if (pr.state === 'closed') {
      await store.update(
        promotion.id,
        { status: 'closed', statusReason: 'Pull request closed on GitHub' },
        { type: 'closed', actor: 'github', detail: pr.url },
      );
      return true;
    }
    return false;
  }

  private async publishHealth(promotion: PromotionRecord, pr: PullRequestInfo, verdict: SourceVerdict) {
    const healthState = `${verdict.state}:${pr.headSha}:${verdict.description}`;
    if (promotion.healthState === healthState) return;
    await this.options.writer.setStatus({
      sha: pr.headSha,
      context: HEALTH_CONTEXT,
      state: verdict.state,
      description: verdict.description,
    });
    const previous = promotion.healthState?.split(':')[0];
    const event = transitionEvent(previous, verdict);
    await this.options.store.update(promotion.id, { healthState }, event);
  }

  private async merge(promotion: PromotionRecord, pr: PullRequestInfo) {
    const { writer, store, logger } = this.options;
    const outcome = await writer.mergePullRequest(
      pr.number,
      pr.headSha,
      `${pullRequestTitle(promotion)} (#${pr.number})`,
    );
    if (outcome.merged) {
      if (promotion.branch) await writer.deleteBranch(promotion.branch).catch(() => undefined);
      await store.update(
        promotion.id,
        { status: 'merged', statusReason: undefined },
        { type: 'merged', actor: GATE_ACTOR, detail: outcome.sha },
      );
      return;
    }
    if (outcome.reason === 'head-moved') {
      logger.info(`PR #${pr.number} head moved while merging; next Gate run retries`);
      return;
    }
    const fresh = await writer.getPullRequest(pr.number);
    if (await this.settledOnGitHub(promotion, fresh)) return;
    await this.close(promotion, fresh, `GitHub cannot merge it (${outcome.message}); request the promotion again`);
  }

  private async close(promotion: PromotionRecord, pr: PullRequestInfo, reason: string) {
    const { writer, store } = this.options;
    await writer.closePullRequest(pr.number, `Closed by the promotions Gate: ${reason}.`);
    if (promotion.branch) await writer.deleteBranch(promotion.branch).catch(() => undefined);

    await store.update(
      promotion.id,
      { status: 'closed', statusReason: reason },
      { type: 'closed', actor: GATE_ACTOR, detail: reason },
    );
  }
}
