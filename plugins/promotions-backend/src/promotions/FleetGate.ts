import { LoggerService } from '@backstage/backend-plugin-api';
import {
  FleetMemberReading,
  decideFleetMerge,
  decideGuards,
  fleetMemberReading,
  guardsReason,
} from '@refplat/plugin-promotions-common';
import { Clock, systemClock } from '@refplat/plugin-promotions-node';
import type { PlatformRepo, PlatformRepoFiles, PullRequestInfo } from '@refplat/plugin-promotions-node';
import { PromotionsConfig } from '../config';
import { PromotionRecord, PromotionStore } from '../database/PromotionStore';
import { gitBlobSha } from '../github/repoTarball';
import { PromotionGuards } from '../guards/PromotionGuards';
import { LadderService } from '../ladder/LadderService';
import { releasePath } from '../ladder/readProductRecords';
import { HEALTH_CONTEXT, healthChangeEvent, judgeSource, sameVerdict } from './Gate';
import { GATE_ACTOR, deleteBranchOrLeaveIt, recordMergeByGate, settleFromGitHub } from './mergeSettlement';
import { applyLifecycleEvent } from './PromotionLifecycle';
import { expectedText } from './verifyPullRequest';
import { recordGateDecision } from '../telemetry/promotionsMetrics';

/** Take-outs in one check before it leaves the rest to the next: each is a commit. */
const MAX_ROUNDS = 3;

/** What the PR changes, by path: the blob sha at its head (none: deleted). */
type ChangedFiles = Map<string, string | undefined>;

/**
 * The Gate for a fleet PR (several Products' promotions into one stage,
 * one PR): every Product in it is judged at the moment the Gate looks, as a
 * PR of its own would be; a Product that must not merge is taken out with a
 * commit restoring its Release file, and its promotion closed saying why;
 * the PR merges only when every Product left is ready, so nothing merges on
 * another's health. Files no live promotion owns (one superseded by a
 * person's request, withdrawn) are taken out the same way.
 */
export class FleetGate {
  private readonly inFlight = new Map<number, Promise<void>>();

  constructor(
    private readonly options: {
      config: PromotionsConfig;
      store: PromotionStore;
      writer: PlatformRepo;
      files: PlatformRepoFiles;
      ladder: Pick<LadderService, 'getLadder'>;
      guards?: PromotionGuards;
      logger: LoggerService;
      clock?: Clock;
    },
  ) {}

  /** Checks fleet PR `number`; concurrent calls share a run. `listed`: the PR as a list just read it. */
  check(number: number, listed?: PullRequestInfo): Promise<void> {
    const running = this.inFlight.get(number);
    if (running) return running;
    const run = this.checkPullRequest(number, listed)
      .catch(error => this.options.logger.warn(`Gate could not check fleet PR #${number}: ${error}`))
      .finally(() => this.inFlight.delete(number));
    this.inFlight.set(number, run);
    return run;
  }

  private async checkPullRequest(number: number, listed?: PullRequestInfo): Promise<void> {
    let pr = listed;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const members = (await this.options.store.listLive()).filter(p => p.pullRequest.number === number);
      if (!members.length) return;
      if (!pr || members.some(member => member.headSha !== pr!.headSha)) pr = await this.options.writer.getPullRequest(number);
      // A fleet PR merged or closed by hand on GitHub ends every promotion in it.
      const settled = await Promise.all(members.map(member => settleFromGitHub(this.options, member, pr!)));
      if (settled.some(Boolean)) return;
      const next = await this.judge(members, pr);
      if (!next) return;
      pr = next;
    }
  }

  /** One look: merge, take out (answering the PR after), or wait. */
  private async judge(members: PromotionRecord[], pr: PullRequestInfo): Promise<PullRequestInfo | undefined> {
    const { config, files, writer } = this.options;
    const revision = await files.headCommit({ fresh: true });
    const index = await files.fileIndex(revision);
    const changed: ChangedFiles = new Map((await writer.changedFiles(pr.headSha)).map(file => [file.filename, file.blobSha]));
    const readAll = (fresh: boolean) => Promise.all(members.map(member => this.read(member, pr.headSha, index, changed, fresh)));
    const owned = new Set(members.map(member => releasePath(config, member, member.toStage)));
    // Unowned files the base branch does not already hold: restored to the base's text.
    const strays = [...changed].filter(([path, blobSha]) => !owned.has(path) && index[path] !== blobSha).map(([path]) => path);
    let decision = decideFleetMerge(await readAll(false));
    if (decision.action === 'merge' && this.options.guards?.any) {
      // About to merge: the guards decide again at this moment, those that keep what they learnt
      // (provenance) afresh, as for a PR of its own.
      decision = decideFleetMerge(await readAll(true));
    }
    if (decision.action === 'merge' && strays.length === 0) {
      await this.merge(members, pr);
      return undefined;
    }
    const takeOut = decision.action === 'take-out' ? decision.members : [];
    if (takeOut.length === 0 && strays.length === 0) {
      recordGateDecision('wait-for-health');
      return undefined;
    }
    return this.takeOut(members, pr, takeOut, strays, index);
  }

  private async read(
    member: PromotionRecord,
    headSha: string,
    index: Record<string, string>,
    changed: ChangedFiles,
    fresh: boolean,
  ): Promise<FleetMemberReading> {
    const { config, files, ladder: ladders, store } = this.options;
    const path = releasePath(config, member, member.toStage);
    const targetMoved = index[path] !== member.baseBlobSha;
    const expected = member.baseBlobSha ? expectedText(await files.readBlob(member.baseBlobSha), member.services) : undefined;
    const fileIsRequested = expected !== undefined && changed.get(path) === gitBlobSha(Buffer.from(expected));
    const ladder = await ladders.getLadder({ team: member.team, product: member.product }, { healthOf: { stages: [member.fromStage] } });
    const source = judgeSource(ladder, member);
    // Each Product's verdict in its own record and trail, as for a PR of its own (on GitHub only where a merge needs it).
    const healthState = { state: source.state, sha: headSha, description: source.description };
    if (!sameVerdict(member.healthState, healthState)) {
      await applyLifecycleEvent(store, member.id, 'health-judged', {
        expected: { healthState: member.healthState ?? null },
        changes: { healthState },
        audit: healthChangeEvent(member.healthState?.state, source),
      });
    }
    return fleetMemberReading({ id: member.id, targetMoved, fileIsRequested, source, guards: await this.guardsOn(member, fresh) });
  }

  /** The guards' decision; `fresh`: right before a merge, those that keep what they learnt ask afresh. */
  private async guardsOn(member: PromotionRecord, fresh: boolean) {
    const { guards } = this.options;
    if (!guards?.any) return undefined;
    const now = (this.options.clock ?? systemClock).now();
    const decision = decideGuards(await guards.evaluate(member, 'gate', now, { beforeMerge: fresh }), member.guardOverride);
    return { verdict: decision.verdict, reason: guardsReason(decision) };
  }

  /**
   * One commit restoring the taken-out Products' Release files (and the strays) to the base
   * branch's text, so a merge leaves them as they are; then their promotions closed. Every
   * Product out: the PR is closed instead, nothing left to merge. Answers the PR after.
   */
  private async takeOut(
    members: PromotionRecord[],
    pr: PullRequestInfo,
    takeOut: Array<{ id: string; reason: string }>,
    strays: string[],
    index: Record<string, string>,
  ): Promise<PullRequestInfo | undefined> {
    const { config, files, writer, store } = this.options;
    const leaving = members.filter(member => takeOut.some(out => out.id === member.id));
    const staying = members.filter(member => !leaving.includes(member));
    const reasonOf = (member: PromotionRecord) => takeOut.find(out => out.id === member.id)!.reason;
    let head = pr.headSha;
    if (staying.length) {
      const paths = [...leaving.map(member => releasePath(config, member, member.toStage)), ...strays];
      const restorable = paths.filter(path => index[path] !== undefined);
      const restored = await Promise.all(restorable.map(async path => ({ path, text: await files.readBlob(index[path]) })));
      const lines = [
        ...leaving.map(member => `- ${member.team}/${member.product}: ${reasonOf(member)}`),
        ...strays.map(path => `- ${path}: no live promotion owns it`),
      ];
      head = await writer.commitFiles({
        branch: pr.headRef,
        parent: pr.headSha,
        files: restored,
        message: `Take ${lines.length} out of the fleet PR #${pr.number}\n\n${lines.join('\n')}`,
        createBranch: false,
      });
    }
    for (const member of leaving) {
      const reason = `Taken out of fleet PR #${pr.number}: ${reasonOf(member)}`;
      await applyLifecycleEvent(store, member.id, 'closed-by-gate', {
        changes: { statusReason: reason },
        audit: { type: 'closed', actor: GATE_ACTOR, detail: reason },
      });
      recordGateDecision('close');
    }
    if (!staying.length) {
      await writer.closePullRequest(pr.number, `Closed by the promotions Gate: every Product was taken out.\n\n${leaving.map(m => `- ${m.team}/${m.product}: ${reasonOf(m)}`).join('\n')}`);
      await deleteBranchOrLeaveIt(this.options, pr.headRef);
      return undefined;
    }
    for (const member of staying) {
      await applyLifecycleEvent(store, member.id, 'head-accepted', { expected: { headSha: member.headSha ?? null }, changes: { headSha: head } });
    }
    return { ...pr, headSha: head };
  }

  /**
   * Merges exactly the head every Product was judged on; GitHub refusing it for a required
   * check gets the Gate's verdict written and the merge tried once more.
   */
  private async merge(members: PromotionRecord[], pr: PullRequestInfo) {
    const { writer } = this.options;
    const { fromStage, toStage } = members[0];
    const title = `Promote ${members.length} Products ${fromStage} → ${toStage} (fleet) (#${pr.number})`;
    const message = `Merged by the promotions Gate: ${fromStage} is Synced, Healthy and running these digests for every Product:\n\n${members.map(m => `- ${m.team}/${m.product}`).join('\n')}`;
    let outcome = await writer.mergePullRequest(pr.number, pr.headSha, title, message);
    if (!outcome.merged && outcome.reason === 'checks-required' && (!outcome.context || outcome.context === HEALTH_CONTEXT)) {
      await writer.setStatus({ sha: pr.headSha, context: HEALTH_CONTEXT, state: 'success', description: `${fromStage} is healthy for every Product in it` });
      outcome = await writer.mergePullRequest(pr.number, pr.headSha, title, message);
    }
    if (!outcome.merged) {
      this.options.logger.info(`Fleet PR #${pr.number} not merged (${outcome.reason}: ${outcome.message}); the next Gate run looks again`);
      recordGateDecision(outcome.reason === 'checks-required' ? 'wait-for-required-check' : 'wait-for-health');
      return;
    }
    for (const member of members) await recordMergeByGate(this.options, member, outcome.sha);
    if (!outcome.headBranchDeleted) await deleteBranchOrLeaveIt(this.options, pr.headRef);
  }
}
