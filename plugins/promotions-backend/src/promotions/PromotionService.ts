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
  isValidName,
  planPromotion,
} from '@refplat/plugin-promotions-common';
import { PromotionsConfig } from '../config';
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
}

export interface RequestOutcome {
  promotion: PromotionRecord;
  existing: boolean;
  plan: PromotionServicePlan[];
}

const PULL_REQUEST_WAIT_MS = 15_000;

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

  async request(product: ProductRef, body: unknown, requestedBy: string): Promise<RequestOutcome> {
    const request = validateRequest(body);
    const { config, ladder: ladderService, store } = this.options;
    if (!config.stages.includes(request.toStage)) {
      throw new InputError(
        `Unknown stage '${request.toStage}'; stages are ${config.stages.join(', ')}`,
      );
    }
    const ladder = await ladderService.getLadder(product);
    const plan = planPromotion(ladder, request);
    if (!plan.allowed) {
      if (plan.refusal === 'unknown-service' || plan.refusal === 'unknown-stage') {
        throw new InputError(plan.reason);
      }
      throw new ConflictError(`Promotion into ${request.toStage} refused: ${plan.reason}`);
    }

    const fingerprint = promotionFingerprint(product.team, product.product, plan.toStage, plan.services);
    const live = await store.findLive(product.team, product.product, plan.toStage);
    if (live?.fingerprint === fingerprint) {
      return { promotion: await this.withPullRequest(live), existing: true, plan: plan.plan };
    }

    const target = ladder.stages.find(stage => stage.name === plan.toStage)!;
    let record: PromotionRecord;
    try {
      record = await store.insertLive(
        {
          team: product.team,
          product: product.product,
          fromStage: plan.fromStage,
          toStage: plan.toStage,
          services: plan.services,
          previousServices: plan.previous,
          fingerprint,
          kind: 'promotion',
          status: plan.requiresApproval ? 'awaiting-approval' : 'open',
          requestedBy,
          baseBlobSha: target.release.blobSha,
        },
        requestedBy,
        live ? { id: live.id, reason: 'Superseded by a newer promotion request' } : undefined,
      );
    } catch (error) {
      if (error instanceof OpenPromotionConflictError) {
        if (error.existing.fingerprint === fingerprint) {
          return {
            promotion: await this.withPullRequest(error.existing),
            existing: true,
            plan: plan.plan,
          };
        }
        throw new ConflictError(
          `A different promotion into ${plan.toStage} was requested at the same time; try again to supersede it`,
        );
      }
      throw error;
    }

    const opened = await this.openPullRequest(record, ladder.revision, plan.requiresApproval, product);
    if (live?.pullRequest.number) {
      await this.closeSuperseded(live, opened);
    }
    this.options.onChange?.(opened.id);
    return { promotion: opened, existing: false, plan: plan.plan };
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
