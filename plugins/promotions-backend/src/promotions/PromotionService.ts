import { randomUUID } from 'crypto';
import { LoggerService } from '@backstage/backend-plugin-api';
import {
  ConflictError,
  InputError,
  NotFoundError,
} from '@backstage/errors';
import {
  GuardOverride,
  GuardPhase,
  NamedGuardVerdict,
  PromotionRequest,
  decideGuards,
  guardsReason,
  PromotionServicePlan,
  ProductRef,
  RollbackRequest,
  requestStep,
  planPromotion,
  requestedStatus,
  shortDigest,
} from '@refplat/plugin-promotions-common';
import { HoldStore } from '../database/HoldStore';
import { PromotionsConfig, requireStage } from '../config';
import { Clock, systemClock } from '@refplat/plugin-promotions-node';
import type { PlatformRepo, PullRequestInfo } from '@refplat/plugin-promotions-node';
import { RequestSnapshots } from './RequestSnapshot';
import {
  OpenPromotionConflictError,
  PromotionRecord,
  PromotionStore,
} from '../database/PromotionStore';
import { PromotionOpener } from './PromotionOpener';
import { applyLifecycleEvent } from './PromotionLifecycle';
import { PromotionGuards } from '../guards/PromotionGuards';
import { actorInMarkdown, branchName, isFleetBranch, promotionFingerprint } from './pullRequestText';
import { ActorNames } from '../service/ActorNames';
import { openingLeaseFromNow } from './openingLease';
import { recordPromotionRequested } from '../telemetry/promotionsMetrics';

export interface PromotionServiceOptions {
  config: PromotionsConfig;
  /** What a request plans from: the records, the stage below's health, the holds (not the annotated ladder). */
  snapshots: Pick<RequestSnapshots, 'forPromotion' | 'forRollback'>;
  store: PromotionStore;
  writer: PlatformRepo;
  opener: PromotionOpener;
  guards?: PromotionGuards;
  logger: LoggerService;
  /**
   * Called after a change a Gate run should look at soon; `opened` is the PR
   * the request just opened, as GitHub answered its creation.
   */
  onChange?: (promotionId: string, opened?: PullRequestInfo) => void;
  /** Called after a promotion joined the write queue: the queue should take a look. */
  onQueued?: () => void;
  /** Rollbacks place holds here. */
  holds?: Pick<HoldStore, 'place'>;
  /** Whether a digest appears in the recent history of a stage (rollback targets). */
  wasReleasedIn?: (product: ProductRef, stage: string, service: string, digest: string) => Promise<boolean>;
  /** PR comments name people, not entity refs. */
  names: ActorNames;
  /** Guards judge and openers' leases are set and judged at its time (waiting for another request is real time); the machine's clock when not given. */
  clock?: Clock;
}

export interface RequestOutcome {
  promotion: PromotionRecord;
  existing: boolean;
  plan: PromotionServicePlan[];
  /** Each guard's verdict on the request (for the audit trail). */
  guards: NamedGuardVerdict[];
}

/**
 * How long an identical request waits for the one opening the PR, at most
 * (and never longer than the opener's lease, after which it takes over).
 */
const IDENTICAL_REQUEST_WAIT_MS = 30_000;
/** Different requests inserting at once retry this often before answering 409. */
const MAX_INSERT_CONFLICTS = 5;

/**
 * Opens Release PRs. Idempotent and race-safe: the store admits one live
 * promotion per target stage; the same request returns the open one (after
 * waiting for it while another request is opening it); a marker in the PR
 * body lets GitHub alone tell a promotion's PR apart. A different request
 * while one is live supersedes it (the old PR is closed with a comment
 * pointing at the new one; one still being opened is closed by its opener).
 */
export class PromotionService {
  constructor(private readonly options: PromotionServiceOptions) {}

  /**
   * `queue` (the auto-promoter's bulk work) records the promotion in the
   * write queue and returns at once: PromotionQueue opens its PR when GitHub's
   * write budget gives it its turn. A person's identical request takes it
   * out of the queue and opens it at once.
   * `supersede: false` (the auto-promoter) never replaces a live promotion:
   * a different one into the same stage answers 409 instead. A guard's block
   * answers 409 with its reason, unless `override` (a release-approver's,
   * checked by the caller) lifts it. `request` is checked against openapi.yaml
   * by the caller (the router's validator, or an action's checkedBody), once.
   */
  async request(
    product: ProductRef,
    request: PromotionRequest,
    requestedBy: string,
    options: {
      supersede?: boolean;
      phase?: GuardPhase;
      override?: GuardOverride;
      queue?: boolean;
      /** With `queue`: false leaves the queue to the caller's `queueWaiting` (fleet mode batches a whole run). */
      drain?: boolean;
    } = {},
  ): Promise<RequestOutcome> {
    const { snapshots } = this.options;
    // planPromotion refuses a stage the ladder does not have ('unknown-stage'): the one check of it.
    const ladder = await snapshots.forPromotion(product, request.toStage);
    const plan = planPromotion(ladder, request);
    if (!plan.allowed) {
      if (plan.refusal === 'unknown-service' || plan.refusal === 'unknown-stage') {
        throw new InputError(plan.reason);
      }
      throw new ConflictError(`Promotion into ${request.toStage} refused: ${plan.reason}`);
    }

    const target = ladder.stages.find(stage => stage.name === plan.toStage)!;
    const draft = {
      kind: 'promotion' as const,
      fromStage: plan.fromStage,
      toStage: plan.toStage,
      services: plan.services,
      previous: plan.previous,
      baseBlobSha: target.release.blobSha,
      requiresApproval: plan.requiresApproval,
      revision: ladder.revision,
    };
    const guards = await this.judge(product, draft, requestedBy, options);
    const { promotion, existing } = await this.start(
      product,
      { ...draft, requiresApproval: draft.requiresApproval || guards.decision.verdict === 'needs-approval' },
      requestedBy,
      { supersede: options.supersede ?? true, override: options.override, queue: options.queue, drain: options.drain },
    );
    return { promotion, existing, plan: plan.plan, guards: guards.verdicts };
  }

  /** The guards' verdicts on a request; a block (not overridden) refuses it with their reasons. */
  private async judge(
    product: ProductRef,
    draft: { kind: 'promotion' | 'rollback'; fromStage: string; toStage: string; services: Record<string, string> },
    requestedBy: string,
    options: { phase?: GuardPhase; override?: GuardOverride },
  ) {
    const verdicts = (await this.options.guards?.evaluate(
      { ...product, ...draft, requestedBy },
      options.phase ?? 'request',
      (this.options.clock ?? systemClock).now(),
    )) ?? [];
    const decision = decideGuards(verdicts, options.override);
    if (decision.verdict === 'block') {
      throw new ConflictError(`Promotion into ${draft.toStage} refused by policy: ${guardsReason(decision)}`);
    }
    return { verdicts, decision };
  }

  /**
   * A rollback: a Release PR that writes earlier digests of a stage back into
   * it, gated like any promotion (approval stages still need approval), and
   * a hold so the auto-promoter does not undo it. `request` is checked against
   * openapi.yaml by the router's validator, once.
   */
  async rollback(product: ProductRef, request: RollbackRequest, requestedBy: string): Promise<RequestOutcome> {
    const { config, snapshots } = this.options;
    requireStage(config, request.stage);
    const ladder = await snapshots.forRollback(product);
    const stage = ladder.stages.find(s => s.name === request.stage)!;
    const plan: PromotionServicePlan[] = [];
    for (const [service, digest] of Object.entries(request.services)) {
      if (!stage.environment.declaredServices.includes(service)) {
        throw new ConflictError(`Rollback refused: ${stage.name}'s Environment does not declare ${service}`);
      }
      const current = stage.services[service]?.digest;
      if (current === digest) {
        throw new ConflictError(`Rollback refused: ${stage.name} already runs ${service} at ${digest}`);
      }
      if (!(await this.options.wasReleasedIn?.(product, stage.name, service, digest) ?? true)) {
        throw new ConflictError(
          `Rollback refused: ${digest} is not in the recent history of ${service} in ${stage.name}`,
        );
      }
      plan.push({ service, included: true, from: digest, to: current, reason: 'rollback to an earlier digest' });
    }
    const draft = {
      kind: 'rollback' as const,
      fromStage: stage.name,
      toStage: stage.name,
      services: request.services,
      previous: Object.fromEntries(plan.map(p => [p.service, p.to ?? null])),
      baseBlobSha: stage.release.blobSha,
      requiresApproval: stage.requiresApproval,
      revision: ladder.revision,
    };
    const guards = await this.judge(product, draft, requestedBy, {});
    const { promotion, existing } = await this.start(
      product,
      { ...draft, requiresApproval: draft.requiresApproval || guards.decision.verdict === 'needs-approval' },
      requestedBy,
      { supersede: true },
    );
    // A hold stops the auto-promoter promoting into the stage: the bottom rung, which CI
    // writes and nothing promotes into, keeps none (its note would claim what nothing does).
    const promotedInto = ladder.stages[0]?.name !== stage.name;
    for (const [service, digest] of promotedInto ? Object.entries(request.services) : []) {
      await this.options.holds?.place(product, {
        stage: stage.name,
        service,
        reason: `Rolled back to ${shortDigest(digest)} (PR #${promotion.pullRequest.number})`,
        placedBy: requestedBy,
      });
    }
    return { promotion, existing, plan, guards: guards.verdicts };
  }

  private async start(
    product: ProductRef,
    draft: {
      kind: 'promotion' | 'rollback';
      fromStage: string;
      toStage: string;
      services: Record<string, string>;
      previous: Record<string, string | null>;
      baseBlobSha?: string;
      requiresApproval: boolean;
      revision: string;
    },
    requestedBy: string,
    how: { supersede: boolean; override?: GuardOverride; queue?: boolean; drain?: boolean },
  ): Promise<{ promotion: PromotionRecord; existing: boolean }> {
    const { store, opener, config } = this.options;
    const { supersede, override, queue } = how;
    const fingerprint = promotionFingerprint(product.team, product.product, draft.toStage, draft.services);
    const leaseMs = config.gate.openingLeaseSeconds * 1000;
    const waitUntil = Date.now() + Math.min(IDENTICAL_REQUEST_WAIT_MS, leaseMs);
    let conflicts = 0;
    for (;;) {
      const live = await store.findLive(product.team, product.product, draft.toStage);
      const now = (this.options.clock ?? systemClock).now();
      const next = requestStep(
        live,
        { fingerprint, baseBlobSha: draft.baseBlobSha, queue: Boolean(queue), supersede },
        now,
        Date.now() >= waitUntil,
      );
      if (next.step === 'answer-existing') return { promotion: live!, existing: true };
      if (next.step === 'take-from-queue') {
        const taken = await opener.takeQueued(live!);
        if (!taken) continue;
        const { promotion: opened, pullRequest } = await opener.openPullRequest(
          taken,
          draft.revision,
          taken.status === 'awaiting-approval',
        );
        this.options.onChange?.(opened.id, pullRequest);
        return { promotion: opened, existing: true };
      }
      if (next.step === 'refuse-still-opening') {
        throw new ConflictError(
          `The same promotion is being opened by another request and its pull request is not open yet; if that request stopped, the promotion is finished from GitHub once its lease ends in ${Math.ceil(next.leaseEndsInMs / 1000)} s: try again then`,
        );
      }
      if (next.step === 'finish-abandoned') {
        await opener.reconcileAbandoned(live!, requestedBy);
        continue;
      }
      if (next.step === 'wait') {
        await new Promise(resolve => setTimeout(resolve, next.ms));
        continue;
      }
      if (next.step === 'refuse-different') {
        throw new ConflictError(
          `A different promotion into ${draft.toStage} is open (#${live!.pullRequest.number}); not superseding it`,
        );
      }

      const id = randomUUID();
      let inserted;
      try {
        inserted = await store.insertLive(
          {
            id,
            team: product.team,
            product: product.product,
            fromStage: draft.fromStage,
            toStage: draft.toStage,
            services: draft.services,
            previousServices: draft.previous,
            fingerprint,
            kind: draft.kind,
            status: requestedStatus(draft.requiresApproval),
            requestedBy,
            baseBlobSha: draft.baseBlobSha,
            // Written before the branch exists, so a leftover branch always has its promotion.
            branch: branchName({ ...product, toStage: draft.toStage, id }),
            // Queued: no opener holds it until the queue gives it its turn.
            ...(queue
              ? { queuedAt: (this.options.clock ?? systemClock).now().toISOString() }
              : { leaseExpiresAt: openingLeaseFromNow(this.options) }),
            guardOverride: override,
          },
          requestedBy,
          next.supersedes ? { id: live!.id, reason: `Superseded by a newer ${draft.kind} request` } : undefined,
        );
      } catch (error) {
        // Another request took the stage first: look again (wait for it, or supersede it).
        if (error instanceof OpenPromotionConflictError && ++conflicts < MAX_INSERT_CONFLICTS) continue;
        if (error instanceof OpenPromotionConflictError) {
          throw new ConflictError(`Other promotions into ${draft.toStage} keep being requested at the same time; try again`);
        }
        throw error;
      }
      recordPromotionRequested(draft.kind);
      if (queue) {
        if (how.drain !== false) this.queueWaiting();
        return { promotion: inserted.record, existing: false };
      }

      const { promotion: opened, pullRequest } = await opener.openPullRequest(
        inserted.record,
        draft.revision,
        draft.requiresApproval,
      );
      if (inserted.superseded) await this.closeSuperseded(inserted.superseded, opened);
      if (override) await this.recordOverride(opened, override);
      this.options.onChange?.(opened.id, pullRequest);
      return { promotion: opened, existing: false };
    }
  }

  /**
   * Lifts the guards' blocks from a promotion already open (say, one a freeze
   * caught after it opened): stored by compare-and-set on a live status, so
   * one that merged or closed meanwhile is refused; the Gate looks at once.
   */
  async overrideGuards(promotion: PromotionRecord, override: GuardOverride): Promise<PromotionRecord> {
    const overridden = await applyLifecycleEvent(this.options.store, promotion.id, 'guards-overridden', {
      changes: { guardOverride: override },
      audit: { type: 'guards-overridden', actor: override.by, detail: override.reason },
    });
    if (!overridden) {
      const current = (await this.options.store.get(promotion.id)) ?? promotion;
      throw new ConflictError(
        `Promotion ${promotion.id} is ${current.status}: only an open promotion's policy can be overridden`,
      );
    }
    await this.commentOverride(overridden, override);
    this.options.onChange?.(overridden.id);
    return overridden;
  }

  /** The override goes into the promotion's trail and onto its PR, where reviewers look. */
  private async recordOverride(promotion: PromotionRecord, override: GuardOverride) {
    await applyLifecycleEvent(this.options.store, promotion.id, 'override-noted', {
      audit: { type: 'guards-overridden', actor: override.by, detail: override.reason },
    });
    await this.commentOverride(promotion, override);
  }

  private async commentOverride(promotion: PromotionRecord, override: GuardOverride) {
    const { writer, logger, names } = this.options;
    if (!promotion.pullRequest.number) return;
    const nameOf = await names.namesOf([override.by]);
    await writer
      .comment(
        promotion.pullRequest.number,
        `Policy overridden by ${actorInMarkdown(override.by, nameOf)} in Backstage: ${override.reason}. The guards' blocks do not stop this promotion.`,
      )
      .catch(error => logger.warn(`Could not record the override on PR #${promotion.pullRequest.number}: ${error}`));
  }

  /** Promotions joined the write queue: it takes a look. */
  queueWaiting(): void {
    this.options.onQueued?.();
  }

  /**
   * Best-effort: an old PR left open is closed by the Gate's reconciler, as nothing live owns it.
   * A fleet PR stays open for its other Products: the Gate takes this one's file out.
   */
  private async closeSuperseded(old: PromotionRecord, by: PromotionRecord) {
    if (!old.pullRequest.number || isFleetBranch(old.branch)) return;
    try {
      const nameOf = await this.options.names.namesOf([by.requestedBy]);
      await this.options.writer.closePullRequest(
        old.pullRequest.number,
        `Superseded by #${by.pullRequest.number} (requested by ${actorInMarkdown(by.requestedBy, nameOf)}), which promotes ${Object.entries(by.services)
          .map(([service, digest]) => `${service} \`${digest}\``)
          .join(', ')}.`,
      );
      if (old.branch) await this.options.writer.deleteBranch(old.branch);
    } catch (error) {
      this.options.logger.warn(`Could not close superseded PR #${old.pullRequest.number}: ${error}`);
    }
  }

  async get(id: string): Promise<PromotionRecord> {
    const record = await this.options.store.get(id);
    if (!record) throw new NotFoundError(`No promotion ${id}`);
    return record;
  }

  async listForProduct(product: ProductRef): Promise<PromotionRecord[]> {
    return this.options.store.listForProduct(product.team, product.product, 50);
  }
}
