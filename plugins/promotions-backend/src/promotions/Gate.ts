import { LoggerService } from '@backstage/backend-plugin-api';
import {
  GuardsDecision,
  NamedGuardVerdict,
  Ladder,
  approverRefs,
  decideGuards,
  guardCommitStatus,
  guardStatusContext,
  guardsReason,
  shortDigest,
  sourceRun,
  writesCommitStatus,
} from '@refplat/plugin-promotions-common';
import { PromotionGuards } from '../guards/PromotionGuards';
import { PromotionsConfig } from '../config';
import { LIVE_STATUSES, PromotionRecord, PromotionStore } from '../database/PromotionStore';
import { applyLifecycleEvent } from './PromotionLifecycle';
import { Clock, systemClock } from '@refplat/plugin-promotions-node';
import type {
  CommitStatusInput,
  PlatformRepo,
  PlatformRepoFiles,
  PublishedGuardVerdicts,
  PublishedVerdict,
  PullRequestInfo,
} from '@refplat/plugin-promotions-node';
import { LadderService } from '../ladder/LadderService';
import { APPROVAL_CONTEXT } from './ApprovalService';
import { PromotionOpener } from './PromotionOpener';
import { PromotionReconciler } from './PromotionReconciler';
import { isFleetBranch, pullRequestTitle } from './pullRequestText';
import { ActorNames } from '../service/ActorNames';
import { verifyBeforeMerge, verifyPullRequest } from './verifyPullRequest';
import { GateDecision, recordGateDecision } from '../telemetry/promotionsMetrics';
import { GATE_ACTOR, deleteBranchOrLeaveIt, recordMergeByGate, settleFromGitHub } from './mergeSettlement';

export const HEALTH_CONTEXT = 'promotions/health';

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
    const run = sourceRun(source, service, digest);
    if (run.state === 'moved-on') {
      return {
        state: 'failure',
        description: `${promotion.fromStage} moved on: ${service} is now ${run.digest ? shortDigest(run.digest) : 'not released'}`,
        movedOn: true,
      };
    }
    if (run.state !== 'runs-healthy') {
      problems.push(`${service}: ${run.reasons[0] ?? run.verdict}`);
      if (run.state === 'unhealthy') state = 'failure';
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

/**
 * Whether the PR head shows a health status the verdict now contradicts. A
 * PR the Gate merges in this run needs no status saying it may merge (the
 * merge commit's message says it, and GitHub's write budget keeps the
 * write), unless the head shows it failing: every known verdict that did
 * not merge was published (a pending one, not a verdict yet, never is).
 */
function showsOtherHealth(promotion: PromotionRecord, pr: PullRequestInfo): boolean {
  return promotion.healthState?.sha === pr.headSha && promotion.healthState.state === 'failure';
}

/**
 * Whether the health verdict goes on the PR head as `promotions/health`: once known
 * (success, failure), not while the stage below is still getting there (issue 48: one
 * status per PR, not pending-then-success); and as `writesCommitStatus` says for a PR merging now.
 */
function healthOnGitHub(verdict: SourceVerdict, merging: boolean, shownOther: boolean, required: RequiredCheck): boolean {
  if (verdict.state === 'pending') return false;
  return writesCommitStatus({ merging, correctsHead: shownOther, required: required(HEALTH_CONTEXT) });
}

/** Whether a verdict is the one already judged for the head: same state, head and words. */
export function sameVerdict(judged: PublishedVerdict | undefined, verdict: PublishedVerdict): boolean {
  return judged?.state === verdict.state && judged.sha === verdict.sha && judged.description === verdict.description;
}

/** Whether the base branch requires a status context before a merge; undefined: not known. */
type RequiredCheck = (context: string) => boolean | undefined;

/**
 * What a promotion the Gate does not merge now waits for: a guard's block
 * holds it whatever else it waits for, then the stage below's health, then
 * an approval.
 */
function waitingFor(guards: GuardsDecision, verdict: SourceVerdict): GateDecision {
  if (guards.verdict === 'block') return 'blocked-by-guard';
  return verdict.state === 'success' ? 'wait-for-approval' : 'wait-for-health';
}

/** The audit event for a change of the published health, if it changed. */
export function healthChangeEvent(previous: string | undefined, verdict: SourceVerdict) {
  if (verdict.state === previous || verdict.state === 'pending') return undefined;
  const type = verdict.state === 'success' ? ('checks-passed' as const) : ('checks-failed' as const);
  return { type, actor: GATE_ACTOR, detail: verdict.description };
}

/**
 * Moves open promotions forward: re-checks the source stage's health,
 * publishes it on the PR head, verifies the PR's content and merges when
 * allowed, and notices PRs merged or closed by hand, targets changed under
 * a PR and heads that moved. Every step is short, idempotent and recorded
 * by compare-and-set, so replicas running it at once agree and a replica
 * dying mid-way leaves nothing another run cannot finish.
 */
export class Gate {
  /** Per promotion: the check running, and the one queued after it. */
  private readonly inFlight = new Map<string, { run: Promise<void>; next?: Promise<void> }>();

  constructor(
    private readonly options: {
      config: PromotionsConfig;
      store: PromotionStore;
      writer: PlatformRepo;
      /** The ladder's snapshot reader: verifying a PR then takes the base Release from it, not from GitHub. */
      files?: PlatformRepoFiles;
      ladder: Pick<LadderService, 'getLadder'>;
      opener: PromotionOpener;
      reconciler: PromotionReconciler;
      guards?: PromotionGuards;
      logger: LoggerService;
      /** The reason a voided approval gives names the approvers, not their refs. */
      names: ActorNames;
      /** The guards judge at its time (a freeze window); the machine's clock when not given. */
      clock?: Clock;
      /**
       * Told of the stage below of each ladder a check reads (StuckNotifier.notifyStuck):
       * a waiting promotion's stage below is where a stall shows first, and the
       * only stage whose health the check reads.
       */
      ladderSeen?(ladder: Ladder): Promise<void>;
      /** Fleet mode's PRs, several Products' promotions in one (FleetGate): checked PR by PR. */
      fleet?: { check(number: number, listed?: PullRequestInfo): Promise<void> };
    },
  ) {}

  /**
   * One Gate run: reconcile GitHub with the database, then check each live
   * promotion. When `signal` aborts (the task's timeout), no new check starts.
   */
  async checkAll(signal?: AbortSignal): Promise<void> {
    const { reconciler, store, logger } = this.options;
    await reconciler
      .reconcile()
      .catch(error => logger.warn(`Gate could not reconcile with GitHub: ${error}`));
    const live = await store.listLive();
    if (live.length === 0) return;
    const open = await this.openPullRequests();
    const fleetsChecked = new Set<number>();
    for (const promotion of live) {
      if (signal?.aborted) return;
      // A fleet PR is checked once for all of its promotions.
      if (isFleetBranch(promotion.branch) && promotion.pullRequest.number) {
        if (fleetsChecked.has(promotion.pullRequest.number)) continue;
        fleetsChecked.add(promotion.pullRequest.number);
      }
      await this.check(promotion.id, open);
    }
  }

  /**
   * One conditional list of the open PRs per run instead of a GET per
   * promotion: unchanged, it is answered 304, which GitHub does not charge.
   * Undefined when it cannot be read: each check then reads its own PR.
   */
  private async openPullRequests(): Promise<Map<number, PullRequestInfo> | undefined> {
    try {
      const pulls = await this.options.writer.listOpenPullRequests();
      return new Map(pulls.map(pr => [pr.number, pr]));
    } catch (error) {
      this.options.logger.warn(`Gate could not list the open pull requests: ${error}`);
      return undefined;
    }
  }

  /**
   * The promotion's PR: from this run's open list while it is open with the
   * head the plugin knows; read on its own when it left the list (merged or
   * closed: to settle it), its head moved, or there is no list.
   */
  private async pullRequestOf(
    promotion: PromotionRecord,
    open: Map<number, PullRequestInfo> | undefined,
  ): Promise<PullRequestInfo> {
    const listed = open?.get(promotion.pullRequest.number!);
    if (listed && promotion.headSha && listed.headSha === promotion.headSha) return listed;
    return this.options.writer.getPullRequest(promotion.pullRequest.number!);
  }

  /**
   * Checks one promotion. A call while a check of it runs does not join that
   * run, which may have read GitHub before the change the caller heard of (a
   * webhook's merge by hand): it waits for one more check after it, shared by
   * every call made meanwhile. `open` is the run's list of open PRs, when
   * there is one, or the PR a request just opened.
   */
  check(id: string, open?: Map<number, PullRequestInfo>): Promise<void> {
    const running = this.inFlight.get(id);
    if (running) {
      running.next ??= running.run.then(() => this.check(id));
      return running.next;
    }
    const run = this.checkById(id, open)
      .catch(error =>
        this.options.logger.warn(`Gate could not check promotion ${id}: ${error}`),
      )
      .finally(() => this.inFlight.delete(id));
    this.inFlight.set(id, { run });
    return run;
  }

  private async checkById(id: string, open?: Map<number, PullRequestInfo>): Promise<void> {
    let promotion = await this.options.store.get(id);
    if (!promotion || !LIVE_STATUSES.includes(promotion.status)) return;
    if (!promotion.pullRequest.number) {
      // Being opened; once the opener's lease runs out, finish its job.
      await this.options.opener.reconcileAbandoned(promotion, GATE_ACTOR);
      return;
    }

    const { ladder: ladderService, fleet } = this.options;
    if (fleet && isFleetBranch(promotion.branch)) {
      await fleet.check(promotion.pullRequest.number, open?.get(promotion.pullRequest.number));
      return;
    }
    const pr = await this.pullRequestOf(promotion, open);
    if (await settleFromGitHub(this.options, promotion, pr)) return;

    // The verdict reads the stage below alone: ArgoCD is asked for its health only.
    const ladder = await ladderService.getLadder(
      { team: promotion.team, product: promotion.product },
      { healthOf: { stages: [promotion.fromStage] } },
    );
    const below = { ...ladder, stages: ladder.stages.filter(stage => stage.name === promotion!.fromStage) };
    // A notification that cannot be sent must not hold the promotion up.
    await this.options.ladderSeen?.(below).catch(error =>
      this.options.logger.warn(`Gate could not notify a stall of ${promotion!.team}/${promotion!.product}: ${error}`),
    );
    const target = ladder.stages.find(stage => stage.name === promotion!.toStage);
    if (target && promotion.baseBlobSha && target.release.blobSha !== promotion.baseBlobSha) {
      // The change may be this PR's own merge, made by hand after `pr` was read (the push
      // webhook can start this check before the pull_request one): ask GitHub again first.
      const fresh = await this.options.writer.getPullRequest(pr.number);
      if (await settleFromGitHub(this.options, promotion, fresh)) return;
      await this.close(promotion, fresh, `${promotion.toStage}'s Release record changed on the base branch after this PR was opened; request the promotion again`);
      return;
    }
    if (pr.headSha !== promotion.headSha) {
      promotion = await this.acceptHead(promotion, pr);
      if (!promotion) return;
    }

    // A rollback restores what already ran in the stage: no stage below to wait for.
    const verdict: SourceVerdict =
      promotion.kind === 'rollback'
        ? { state: 'success', description: `Rollback of ${promotion.toStage} to earlier digests`, movedOn: false }
        : judgeSource(ladder, promotion);
    if (verdict.movedOn) {
      await this.publishHealth(promotion, pr, verdict, { onGitHub: true });
      await this.close(promotion, pr, verdict.description);
      return;
    }
    const approvedHere = promotion.status === 'approved' && promotion.approvedSha === pr.headSha;
    const decide = (verdicts?: NamedGuardVerdict[]) => {
      const guards = verdicts ? decideGuards(verdicts, promotion.guardOverride) : ({ verdict: 'allow', deciding: [] } as GuardsDecision);
      const needsApproval = target?.requiresApproval || guards.verdict === 'needs-approval';
      const ready = verdict.state === 'success' && guards.verdict !== 'block';
      return { verdicts, guards, ready, mergesNow: ready && (!needsApproval || approvedHere) };
    };
    let decision = decide(await this.evaluateGuards(promotion));
    if (decision.mergesNow && decision.verdicts) {
      // About to merge: the guards decide again at this moment, those that keep what they learnt
      // (provenance) afresh, so that what merges is what admission will accept.
      decision = decide(await this.evaluateGuards(promotion, { beforeMerge: true }));
    }
    const { verdicts, guards, ready, mergesNow } = decision;
    // Only a merge needs to know which statuses GitHub requires: a PR left open shows them all.
    const required = mergesNow ? await this.requiredChecks() : () => undefined;
    await this.publishHealth(promotion, pr, verdict, {
      onGitHub: healthOnGitHub(verdict, mergesNow, showsOtherHealth(promotion, pr), required),
    });
    const guardStatuses = verdicts ? await this.publishGuards(promotion, pr, verdicts, { merging: mergesNow, required }) : [];
    if (mergesNow) {
      const shown = [
        { sha: pr.headSha, context: HEALTH_CONTEXT, state: verdict.state, description: verdict.description },
        ...guardStatuses,
      ];
      await this.merge(promotion, pr, verdict.description, shown);
      return;
    }
    recordGateDecision(waitingFor(guards, verdict));
    // Ready but not merging: it waits for an approval.
    if (ready && promotion.status === 'open') await this.awaitApproval(promotion, guards);
  }

  /**
   * The PR head is not the one the plugin wrote or last verified (someone
   * pushed to the branch): keep the promotion only if the new head is still
   * exactly the requested change, and void an approval given for another head.
   */
  private async acceptHead(promotion: PromotionRecord, pr: PullRequestInfo): Promise<PromotionRecord | undefined> {
    if (!(await this.verifiedOrClosed(promotion, pr))) return undefined;
    const accepted = await applyLifecycleEvent(this.options.store, promotion.id, 'head-accepted', {
      expected: { headSha: promotion.headSha ?? null },
      changes: { headSha: pr.headSha },
    });
    if (accepted?.status === 'approved' && accepted.approvedSha !== pr.headSha) {
      return this.voidApproval(accepted, pr);
    }
    return accepted;
  }

  /** Content that is not exactly the requested change closes the promotion, saying why. */
  private async verifiedOrClosed(
    promotion: PromotionRecord,
    pr: PullRequestInfo,
    verify: typeof verifyPullRequest = verifyPullRequest,
  ): Promise<boolean> {
    const verdict = await verify(this.options, promotion, pr.headSha);
    if (verdict.verified) return true;
    await this.close(promotion, pr, `its content at ${pr.headSha.slice(0, 7)} is not the requested change: ${verdict.reason}`);
    return false;
  }

  /** An approval is for the head it was given on: a moved head needs a new approval. */
  private async voidApproval(promotion: PromotionRecord, pr: PullRequestInfo): Promise<PromotionRecord | undefined> {
    const { store, writer, logger, names } = this.options;
    const approvers = approverRefs(promotion.approvedBy);
    const nameOf = await names.namesOf(approvers);
    const reason = `The pull request's head moved to ${pr.headSha.slice(0, 7)} after ${
      approvers.length ? approvers.map(nameOf).join(', ') : 'a release-approver'
    } approved ${
      promotion.approvedSha ? promotion.approvedSha.slice(0, 7) : 'an earlier head'
    }; a release-approver must approve it again`;
    const voided = await applyLifecycleEvent(store, promotion.id, 'approval-voided', {
      expected: { approvedSha: promotion.approvedSha ?? null },
      changes: { approvedBy: undefined, approvedSha: undefined, statusReason: reason },
      audit: { type: 'approval-voided', actor: GATE_ACTOR, detail: reason },
    });
    if (voided) {
      await writer
        .setStatus({ sha: pr.headSha, context: APPROVAL_CONTEXT, state: 'pending', description: 'Approval voided: the head moved; approve again in Backstage' })
        .then(() => writer.comment(pr.number, `Approval voided. ${reason}.`))
        .catch(error => logger.warn(`Could not tell PR #${pr.number} its approval is void: ${error}`));
    }
    return voided;
  }

  /** The guards' verdicts on the promotion now; undefined when no guard is installed. */
  private async evaluateGuards(
    promotion: PromotionRecord,
    options: { beforeMerge?: boolean } = {},
  ): Promise<NamedGuardVerdict[] | undefined> {
    const { guards } = this.options;
    if (!guards?.any) return undefined;
    return guards.evaluate(promotion, 'gate', (this.options.clock ?? systemClock).now(), options);
  }

  /**
   * Records each guard verdict that changed in the promotion's trail and
   * publishes it as its own commit status on the PR head. A PR the Gate
   * merges in this run gets only the statuses that correct what its head
   * shows, say a release-approver lifted a block, or GitHub requires
   * (writesCommitStatus): a status nobody will read again costs one of
   * GitHub's content writes (issue 48). Answers every guard's status for the
   * head, written or not: what a merge GitHub refuses for one of them writes.
   */
  private async publishGuards(
    promotion: PromotionRecord,
    pr: PullRequestInfo,
    verdicts: NamedGuardVerdict[],
    { merging, required }: { merging: boolean; required: RequiredCheck },
  ): Promise<CommitStatusInput[]> {
    const { writer, store } = this.options;
    const published = promotion.guardState ?? {};
    const state: PublishedGuardVerdicts = {};
    const changes: string[] = [];
    const statuses: CommitStatusInput[] = [];
    for (const verdict of verdicts) {
      const status = { sha: pr.headSha, context: guardStatusContext(verdict.guard), ...guardCommitStatus(verdict, promotion.guardOverride) };
      statuses.push(status);
      state[verdict.guard] = { state: status.state, sha: pr.headSha, description: status.description };
      const shown = published[verdict.guard];
      if (sameVerdict(shown, state[verdict.guard])) continue;
      const corrects = shown?.sha === pr.headSha && shown.state !== status.state;
      const overridden = verdict.verdict === 'block' && status.state === 'success';
      if (writesCommitStatus({ merging, correctsHead: corrects, recordsOverride: overridden, required: required(status.context) })) {
        await writer.setStatus(status);
      }
      changes.push(`${verdict.guard}: ${verdict.verdict}: ${verdict.reason}`);
    }
    if (changes.length) {
      await applyLifecycleEvent(store, promotion.id, 'guards-judged', {
        expected: { guardState: promotion.guardState ?? null },
        changes: { guardState: state },
        audit: { type: 'guard-verdict', actor: GATE_ACTOR, detail: changes.join('; ') },
      });
    }
    return statuses;
  }

  /**
   * Which status contexts the base branch requires before a merge, as the repository says
   * (cached there); not known, each is taken as required: a missing one would refuse the merge.
   */
  private async requiredChecks(): Promise<RequiredCheck> {
    const contexts = await this.options.writer.requiredStatusChecks();
    return context => contexts?.includes(context);
  }

  /** A guard asks for an approval the stage alone would not need: the promotion now waits for one. */
  private async awaitApproval(promotion: PromotionRecord, guards: GuardsDecision) {
    const reason = `Waiting for a release-approver: ${guardsReason(guards)}`;
    await applyLifecycleEvent(this.options.store, promotion.id, 'approval-required', { changes: { statusReason: reason } });
  }

  /**
   * Records a changed health verdict in the promotion's trail and, unless
   * `onGitHub` is off, as the `promotions/health` status on the PR head.
   */
  private async publishHealth(
    promotion: PromotionRecord,
    pr: PullRequestInfo,
    verdict: SourceVerdict,
    { onGitHub }: { onGitHub: boolean },
  ) {
    const healthState: PublishedVerdict = { state: verdict.state, sha: pr.headSha, description: verdict.description };
    if (sameVerdict(promotion.healthState, healthState)) return;
    if (onGitHub) {
      await this.options.writer.setStatus({
        sha: pr.headSha,
        context: HEALTH_CONTEXT,
        state: verdict.state,
        description: verdict.description,
      });
    }
    const previous = promotion.healthState?.state;
    await applyLifecycleEvent(this.options.store, promotion.id, 'health-judged', {
      expected: { healthState: promotion.healthState ?? null },
      changes: { healthState },
      audit: healthChangeEvent(previous, verdict),
    });
  }

  /**
   * Verifies once more right before merging that the base still holds the
   * Release the PR was written on (verifyBeforeMerge), and merges exactly
   * that head; the commit's message says why it could merge (`health`).
   * `shown` are the Gate's statuses for this head: GitHub refusing the merge
   * for one it requires (made required since it was last read) gets it
   * written and the merge tried once more.
   */
  private async merge(promotion: PromotionRecord, pr: PullRequestInfo, health: string, shown: CommitStatusInput[]) {
    const { writer, store, logger } = this.options;
    if (!(await this.verifiedOrClosed(promotion, pr, verifyBeforeMerge))) return;
    const mergeNow = () =>
      writer.mergePullRequest(
        pr.number,
        pr.headSha,
        `${pullRequestTitle(promotion)} (#${pr.number})`,
        `Merged by the promotions Gate: ${health}.`,
      );
    let outcome = await mergeNow();
    if (!outcome.merged && outcome.reason === 'checks-required') {
      const missing = outcome.context;
      const ours = shown.filter(status => !missing || status.context === missing);
      for (const status of ours) await writer.setStatus(status);
      if (ours.length) outcome = await mergeNow();
    }
    if (outcome.merged) {
      // Recorded at once; deleting the branch is cleanup (GitHub paces writes a second apart).
      await recordMergeByGate(this.options, promotion, outcome.sha);
      // A repository that deletes merged branches itself saves the write.
      if (promotion.branch && !outcome.headBranchDeleted) await deleteBranchOrLeaveIt(this.options, promotion.branch);
      return;
    }
    if (outcome.reason === 'head-moved') {
      logger.info(`PR #${pr.number} head moved while merging; the next Gate run verifies the new head`);
      return;
    }
    if (outcome.reason === 'checks-required') {
      // Another's check (CI) not passed yet: not a reason to close; the next run merges once it has.
      const reason = `GitHub holds the merge until the base branch's required status checks pass (${outcome.message})`;
      if (promotion.statusReason !== reason) {
        await applyLifecycleEvent(store, promotion.id, 'merge-held', { changes: { statusReason: reason } });
      }
      recordGateDecision('wait-for-required-check');
      return;
    }
    const fresh = await writer.getPullRequest(pr.number);
    if (await settleFromGitHub(this.options, promotion, fresh)) return;
    await this.close(promotion, fresh, `GitHub cannot merge it (${outcome.message}); request the promotion again`);
  }

  /**
   * Ends the promotion first, then the PR: if closing on GitHub fails, the
   * reconciler closes the PR, which nothing live owns any more.
   */
  private async close(promotion: PromotionRecord, pr: PullRequestInfo, reason: string) {
    const closed = await applyLifecycleEvent(this.options.store, promotion.id, 'closed-by-gate', {
      changes: { statusReason: reason },
      audit: { type: 'closed', actor: GATE_ACTOR, detail: reason },
    });
    if (!closed) return;
    recordGateDecision('close');
    await this.options.writer.closePullRequest(pr.number, `Closed by the promotions Gate: ${reason}.`);
    if (promotion.branch) await deleteBranchOrLeaveIt(this.options, promotion.branch);
  }
}
