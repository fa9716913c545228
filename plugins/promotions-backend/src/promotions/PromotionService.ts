import { LoggerService } from '@backstage/backend-plugin-api';
import {
  ConflictError,
  InputError,
  NotFoundError,
} from '@backstage/errors';
import {
  PromotionRequest,
  PromotionServicePlan,
  ProductRef,
  isValidDigest,
  isValidName,
  planPromotion,
  shortDigest,
} from '@refplat/plugin-promotions-common';
import { HoldStore } from '../database/HoldStore';
import { PromotionsConfig, requireStage } from '../config';
import { PlatformRepoWriter } from '../github/PlatformRepoWriter';
import { LadderService } from '../ladder/LadderService';
import { releasePath } from '../ladder/readProductRecords';
import { setReleaseDigests } from '../releases/editRelease';
import {
  OpenPromotionConflictError,
  PromotionRecord,
  PromotionStore,
} from '../database/PromotionStore';
import {
  branchName,
  parseMarker,
  promotionFingerprint,
  pullRequestBody,
  pullRequestMarkerPrefix,
  pullRequestTitle,
} from './pullRequestText';

export interface PromotionServiceOptions {
  config: PromotionsConfig;
  ladder: LadderService;
  store: PromotionStore;
  writer: PlatformRepoWriter;
  logger: LoggerService;
  /** Link back to the product in Backstage, for the PR description. */
  entityUrl?: (product: ProductRef) => string;
  /** Called after a change a Gate run should look at soon. */
  onChange?: (promotionId: string) => void;
  /** Rollbacks place holds here. */
  holds?: Pick<HoldStore, 'place'>;
  /** Whether a digest appears in the recent history of a stage (rollback targets). */
  wasReleasedIn?: (product: ProductRef, stage: string, service: string, digest: string) => Promise<boolean>;
}

export interface RequestOutcome {
  promotion: PromotionRecord;
  existing: boolean;
  plan: PromotionServicePlan[];
}

const PULL_REQUEST_WAIT_MS = 15_000;

function validateRollback(body: unknown): { stage: string; services: Record<string, string> } {
  const request = body as { stage?: unknown; services?: unknown } | undefined;
  if (!request || typeof request !== 'object' || !isValidName(request.stage)) {
    throw new InputError('Expected a JSON body {stage, services: {<service>: <digest>}}');
  }
  const services = request.services as Record<string, unknown> | undefined;
  if (!services || typeof services !== 'object' || Array.isArray(services) || !Object.keys(services).length) {
    throw new InputError('services must map each service to the digest to roll back to');
  }
  for (const [service, digest] of Object.entries(services)) {
    if (!isValidName(service)) throw new InputError(`Invalid service name ${JSON.stringify(service)}`);
    if (!isValidDigest(digest)) {
      throw new InputError(`${service}: ${JSON.stringify(digest)} is not a digest (sha256:<64 lowercase hex>)`);
    }
  }
  return { stage: request.stage, services: services as Record<string, string> };
}

function validateRequest(body: unknown): PromotionRequest {
  const request = body as Partial<PromotionRequest> | undefined;
  if (!request || typeof request !== 'object') {
    throw new InputError('Expected a JSON body {toStage, services?}');
  }
  if (!isValidName(request.toStage)) {
    throw new InputError(`toStage must be a stage name, got ${JSON.stringify(request.toStage)}`);
  }
  if (request.services !== undefined) {
    if (!Array.isArray(request.services) || request.services.length === 0) {
      throw new InputError('services, when given, must be a non-empty list of service names');
    }
    const bad = request.services.find(service => !isValidName(service));
    if (bad !== undefined) {
      throw new InputError(`Invalid service name ${JSON.stringify(bad)}`);
    }
  }
  return { toStage: request.toStage, services: request.services };
}

/**
 * Opens Release PRs. Idempotent and race-safe: the store admits one live
 * promotion per target stage, the same request returns the open one, and a
 * marker in the PR body lets GitHub alone tell a promotion's PR apart.
 * A different request while one is open supersedes it (the old PR is
 * closed with a comment pointing at the new one).
 */
export class PromotionService {
  constructor(private readonly options: PromotionServiceOptions) {}

  /**
   * `supersede: false` (the auto-promoter) never replaces a live promotion:
   * a different one into the same stage answers 409 instead.
   */
  async request(
    product: ProductRef,
    body: unknown,
    requestedBy: string,
    options: { supersede?: boolean } = {},
  ): Promise<RequestOutcome> {
    const request = validateRequest(body);
    const { config, ladder: ladderService } = this.options;
    requireStage(config, request.toStage);
    const ladder = await ladderService.getLadder(product);
    const plan = planPromotion(ladder, request);
    if (!plan.allowed) {
      if (plan.refusal === 'unknown-service' || plan.refusal === 'unknown-stage') {
        throw new InputError(plan.reason);
      }
      throw new ConflictError(`Promotion into ${request.toStage} refused: ${plan.reason}`);
    }

    const target = ladder.stages.find(stage => stage.name === plan.toStage)!;
    const { promotion, existing } = await this.start(
      product,
      {
        kind: 'promotion',
        fromStage: plan.fromStage,
        toStage: plan.toStage,
        services: plan.services,
        previous: plan.previous,
        baseBlobSha: target.release.blobSha,
        requiresApproval: plan.requiresApproval,
        revision: ladder.revision,
      },
      requestedBy,
      options.supersede ?? true,
    );
    return { promotion, existing, plan: plan.plan };
  }

  /**
   * A rollback: a Release PR that writes earlier digests of a stage back into
   * it, gated like any promotion (approval stages still need approval), and
   * a hold so the auto-promoter does not undo it.
   */
  async rollback(product: ProductRef, body: unknown, requestedBy: string): Promise<RequestOutcome> {
    const request = validateRollback(body);
    const { config, ladder: ladderService } = this.options;
    requireStage(config, request.stage);
    const ladder = await ladderService.getLadder(product);
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
    const { promotion, existing } = await this.start(
      product,
      {
        kind: 'rollback',
        fromStage: stage.name,
        toStage: stage.name,
        services: request.services,
        previous: Object.fromEntries(plan.map(p => [p.service, p.to ?? null])),
        baseBlobSha: stage.release.blobSha,
        requiresApproval: stage.requiresApproval,
        revision: ladder.revision,
      },
      requestedBy,
      true,
    );
    for (const [service, digest] of Object.entries(request.services)) {
      await this.options.holds?.place(product, {
        stage: stage.name,
        service,
        reason: `Rolled back to ${shortDigest(digest)} (PR #${promotion.pullRequest.number})`,
        placedBy: requestedBy,
      });
    }
    return { promotion, existing, plan };
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
    supersede: boolean,
  ): Promise<{ promotion: PromotionRecord; existing: boolean }> {
    const { store } = this.options;
    const fingerprint = promotionFingerprint(product.team, product.product, draft.toStage, draft.services);
    const live = await store.findLive(product.team, product.product, draft.toStage);
    if (live?.fingerprint === fingerprint) {
      return { promotion: await this.withPullRequest(live), existing: true };
    }
    if (live && !supersede) {
      throw new ConflictError(
        `A different promotion into ${draft.toStage} is open (#${live.pullRequest.number}); not superseding it`,
      );
    }

    let record: PromotionRecord;
    try {
      record = await store.insertLive(
        {
          team: product.team,
          product: product.product,
          fromStage: draft.fromStage,
          toStage: draft.toStage,
          services: draft.services,
          previousServices: draft.previous,
          fingerprint,
          kind: draft.kind,
          status: draft.requiresApproval ? 'awaiting-approval' : 'open',
          requestedBy,
          baseBlobSha: draft.baseBlobSha,
        },
        requestedBy,
        live ? { id: live.id, reason: `Superseded by a newer ${draft.kind} request` } : undefined,
      );
    } catch (error) {
      if (error instanceof OpenPromotionConflictError) {
        if (error.existing.fingerprint === fingerprint) {
          return { promotion: await this.withPullRequest(error.existing), existing: true };
        }
        throw new ConflictError(
          `A different promotion into ${draft.toStage} was requested at the same time; try again to supersede it`,
        );
      }
      throw error;
    }

    const opened = await this.openPullRequest(record, draft.revision, draft.requiresApproval, product);
    if (live?.pullRequest.number) {
      await this.closeSuperseded(live, opened);
    }
    this.options.onChange?.(opened.id);
    return { promotion: opened, existing: false };
  }

  /** A concurrent identical request may still be opening its PR: wait for it. */
  private async withPullRequest(record: PromotionRecord): Promise<PromotionRecord> {
    const deadline = Date.now() + PULL_REQUEST_WAIT_MS;
    let current: PromotionRecord | undefined = record;
    while (current && !current.pullRequest.number && Date.now() < deadline) {
      await new Promise(resolve => setTimeout(resolve, 200));
      current = await this.options.store.get(record.id);
    }
    if (!current?.pullRequest.number) {
      throw new ConflictError(
        `The same promotion is being opened by another request and has no pull request yet (${current?.status ?? 'gone'}); try again`,
      );
    }
    return current;
  }

  private async openPullRequest(
    record: PromotionRecord,
    baseRevision: string,
    requiresApproval: boolean,
    product: ProductRef,
  ): Promise<PromotionRecord> {
    const { config, store, writer, logger } = this.options;
    const marker = pullRequestMarkerPrefix(record.team, record.product, record.toStage);
    const branch = branchName(record);
    let branchCreated = false;
    try {
      const adoptable = (await writer.findOpenPullRequests(marker)).find(
        pr => parseMarker(pr.body).fingerprint === record.fingerprint,
      );
      if (adoptable) {
        logger.info(`Adopting open PR #${adoptable.number} for promotion ${record.id}`);
        return await store.update(
          record.id,
          { pullRequest: { number: adoptable.number, url: adoptable.url }, branch: adoptable.headRef },
          { type: 'pr-opened', actor: record.requestedBy, detail: `adopted ${adoptable.url}` },
        );
      }

      const path = releasePath(config, product, record.toStage);
      const current = await writer.readFile(path, baseRevision);
      const text = setReleaseDigests(current.text, record.services);
      await writer.createBranch(branch, baseRevision);
      branchCreated = true;
      await writer.commitFile({
        branch,
        path,
        text,
        blobSha: current.blobSha,
        message: `${pullRequestTitle(record)}\n\nRequested by ${record.requestedBy}.`,
      });
      const pr = await writer.openPullRequest({
        branch,
        title: pullRequestTitle(record),
        body: pullRequestBody({
          ...record,
          previous: record.previousServices ?? {},
          requiresApproval,
          approvers: config.approval.approvers,
          entityUrl: this.options.entityUrl?.(product),
        }),
        labels: ['promotion', `stage:${record.toStage}`, `product:${record.team}-${record.product}`],
      });
      return await store.update(
        record.id,
        { pullRequest: { number: pr.number, url: pr.url }, branch },
        { type: 'pr-opened', actor: record.requestedBy, detail: pr.url },
      );
    } catch (error) {
      const reason = `Could not open the Release PR: ${(error as Error).message}`;
      logger.warn(`Promotion ${record.id}: ${reason}`);
      if (branchCreated) {
        await writer.deleteBranch(branch).catch(cleanupError =>
          logger.warn(`Could not delete branch ${branch}: ${cleanupError}`),
        );
      }
      await store.update(
        record.id,
        { status: 'failed', statusReason: reason },
        { type: 'failed', actor: 'promotions', detail: reason },
      );
      throw error;
    }
  }

  private async closeSuperseded(old: PromotionRecord, by: PromotionRecord) {
    try {
      await this.options.writer.closePullRequest(
        old.pullRequest.number,
        `Superseded by #${by.pullRequest.number} (requested by \`${by.requestedBy}\`), which promotes ${Object.entries(by.services)
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
