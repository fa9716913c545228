import { LoggerService } from '@backstage/backend-plugin-api';
import { NotFoundError } from '@backstage/errors';
import {
  Ladder,
  LadderServiceCell,
  LadderStage,
  ProductRef,
  ServiceHealth,
  applicationName,
  autoPromotionSources,
  evaluateServiceHealth,
  healthNotRead,
  evaluateStageHealth,
  isWaitingToClimb,
  Promotion,
  promotability,
  syncedRevision,
} from '@refplat/plugin-promotions-common';
import { PromotionsConfig } from '../config';
import { Clock, systemClock } from '@refplat/plugin-promotions-node';
import type { PlatformRepoFiles, RepoFileIndex } from '@refplat/plugin-promotions-node';
import {
  ApplicationListing,
  HealthSource,
  ObservedApplication,
} from '../health/HealthSource';
import { ApplicationObservation, observeApplication } from '../health/observeApplication';
import { DigestAgeJudge } from '../promotions/DigestAges';
import { platformRevisionsCarryingRelease } from './platformRevisions';
import { ProductRecords, StageRecords, productFileBlobs, readProductRecords } from './readProductRecords';

/** Whose health a ladder read asks ArgoCD for (getLadder's `healthOf`). */
export type LadderHealthReads = 'every-stage' | 'auto-promotion-sources' | { stages: string[] };

/** Where every ladder's intent and reality come from: the platform repo and the health source. */
export interface LadderSources {
  config: PromotionsConfig;
  repo: PlatformRepoFiles;
  healthSource?: HealthSource;
  logger: LoggerService;
  /** The time health is judged at (how long a sync or canary has run); the machine's clock when not given. */
  clock?: Clock;
}

/** What the views' ladder knows beyond the platform repo and the health source (see `LadderService.forViews`). */
export interface LadderViewParts {
  /** The Product's live promotions, shown on the ladder. */
  livePromotions?: (product: ProductRef) => Promise<Promotion[]>;
  /** Who may approve the Product's promotions; `promotions.approval.approvers` when not given. */
  approvers?: (product: ProductRef) => Promise<string[]>;
  /** Which digest is older, where two stages differ: an older one does not climb. */
  digestAges?: DigestAgeJudge;
  /**
   * Adds state kept outside GitHub and ArgoCD (holds, soak, auto-promoter decisions), and what
   * the listed Applications' clusters say (the diagnosis' hop evidence).
   */
  annotate?: (ladder: Ladder, listing: ApplicationListing) => Promise<void>;
}

const NO_HEALTH_SOURCE =
  'No health source configured (set promotions.argocd or promotions.kubernetes, ' +
  'or argocd.appLocatorMethods or kubernetes.clusterLocatorMethods with type: config)';

/**
 * Builds a Product's ladder: intent from the platform repo (Release records
 * and Environments at the branch head), reality from the health source, and
 * the verdict of the pure health rules for every service at every stage.
 */
export class LadderService {
  /**
   * The ladder the views, the Gate and the auto-promoter read: the records
   * and health with `parts` added (live promotions, approvers, digest ages,
   * annotations).
   */
  static forViews(sources: LadderSources, parts: LadderViewParts): LadderService {
    return new LadderService({ ...sources, ...parts });
  }

  /**
   * The records and health alone, no live promotions, digest ages or
   * annotations, and the configured approvers: what a request's snapshot
   * plans from (it adds the holds and soak it needs itself), so a request
   * waits on none of what the views add.
   */
  static recordsAndHealth(sources: LadderSources): LadderService {
    return new LadderService(sources);
  }

  private readonly clock: Clock;

  private constructor(private readonly options: LadderSources & LadderViewParts) {
    this.clock = options.clock ?? systemClock;
  }

  /**
   * `at` lets a caller that reads many Products (the auto-promoter) read the
   * branch head and the Applications once for all of them. `judgeAges` reads
   * the Release records' history to judge the digest age of pairs not judged
   * before (the auto-promoter, which must never downgrade); a view answers
   * with the judgements made so far, at no upstream cost. `healthOf` narrows
   * the stages whose health is read (resource trees, Rollouts): those an
   * auto-promotion could leave (`autoPromotionSources`), or the ones named;
   * the other stages' cells say their health was not read.
   */
  async getLadder(
    product: ProductRef,
    at: {
      revision?: string;
      listing?: ApplicationListing;
      judgeAges?: boolean;
      healthOf?: LadderHealthReads;
    } = {},
  ): Promise<Ladder> {
    const revision = at.revision ?? (await this.options.repo.headCommit());
    return this.buildLadder(product, revision, await this.readRecords(product, revision), at);
  }

  /**
   * The auto-promoter's ladder of a Product, its Release records read once.
   * When they offer no digest to any rung it walks (`autoPromotionSources`
   * is empty), every decision follows from the records alone ("already
   * carries it", "not released"): no health, history, promotion or
   * annotation is read (`idle`), and an organisation's idle Products cost a
   * run almost nothing. Otherwise the ladder judges every differing digest's
   * age (it never downgrades) and reads the health of those sources only.
   */
  async autoPromotionLadder(
    product: ProductRef,
    at: { revision: string; listing: ApplicationListing },
  ): Promise<{ ladder: Ladder; idle: boolean }> {
    const { revision } = at;
    const read = await this.readRecords(product, revision);
    if (this.stagesToRead(read.records, 'auto-promotion-sources')!.size > 0) {
      const options = { listing: at.listing, judgeAges: true, healthOf: 'auto-promotion-sources' as const };
      return { ladder: await this.buildLadder(product, revision, read, options), idle: false };
    }
    const { records, index } = read;
    const nothingListed: ApplicationListing = { applications: [], errors: [] };
    const stages = await Promise.all(
      records.stages.map(stage => this.buildStage(product, stage, records, nothingListed, undefined, revision, index, false)),
    );
    markWaitingToClimb(stages);
    const approvers = this.options.config.approval.approvers;
    return { ladder: this.ladderOf(product, records, stages, { revision, promotions: [], approvers }), idle: true };
  }

  /** A Product's file index and records at `revision`; NotFoundError when it has none. */
  private async readRecords(product: ProductRef, revision: string): Promise<{ index: RepoFileIndex; records: ProductRecords }> {
    const { config, repo } = this.options;
    const index = await repo.fileIndex(revision);
    // A cold Product's files in one request (the tarball of a small repository), not one each.
    await repo.prefetchBlobs(revision, productFileBlobs(config, index, product));
    const records = await readProductRecords(repo, config, index, product);
    if (!records.exists) {
      throw new NotFoundError(
        `No Release records or Environments for ${product.team}/${product.product} under ${config.releasesPath} or ${config.environmentsPath}`,
      );
    }
    return { index, records };
  }

  private async buildLadder(
    product: ProductRef,
    revision: string,
    { index, records }: { index: RepoFileIndex; records: ProductRecords },
    at: { listing?: ApplicationListing; judgeAges?: boolean; healthOf?: LadderHealthReads },
  ): Promise<Ladder> {
    const listing = at.listing ?? (await this.listApplications(product));
    const healthError =
      listing.errors.length > 0 ? listing.errors.join('; ') : undefined;

    const read = this.stagesToRead(records, at.healthOf ?? 'every-stage');
    const stages = await Promise.all(
      records.stages.map(stage =>
        this.buildStage(product, stage, records, listing, healthError, revision, index, read?.has(stage.name) ?? true),
      ),
    );
    await this.markIncomingAges(product, stages, at.judgeAges ?? false);
    markWaitingToClimb(stages);

    const ladder = this.ladderOf(product, records, stages, {
      revision,
      healthError,
      promotions: (await this.options.livePromotions?.(product)) ?? [],
      approvers: (await this.options.approvers?.(product)) ?? this.options.config.approval.approvers,
    });
    await this.options.annotate?.(ladder, listing);
    markPromotability(ladder);
    return ladder;
  }

  private ladderOf(
    product: ProductRef,
    records: ProductRecords,
    stages: Ladder['stages'],
    rest: Pick<Ladder, 'revision' | 'healthError' | 'promotions' | 'approvers'>,
  ): Ladder {
    return {
      team: product.team,
      product: product.product,
      services: records.services,
      stages,
      ...rest,
      generatedAt: this.clock.now().toISOString(),
    };
  }

  /**
   * The Product's Applications (without one, every Product's), or why there are none: a lookup
   * failure shows on the ladder, not as a 5xx.
   */
  async listApplications(product?: ProductRef): Promise<ApplicationListing> {
    if (!this.options.healthSource) {
      return { applications: [], errors: [NO_HEALTH_SOURCE] };
    }
    try {
      return await this.options.healthSource.listApplications(product);
    } catch (error) {
      return { applications: [], errors: [(error as Error).message] };
    }
  }

  /** The stages whose health `healthOf` asks for; undefined: every stage. */
  private stagesToRead(
    records: ProductRecords,
    healthOf: LadderHealthReads,
  ): Set<string> | undefined {
    if (healthOf === 'every-stage') return undefined;
    if (healthOf !== 'auto-promotion-sources') return new Set(healthOf.stages);
    const approvalStages = this.options.config.approval.stages;
    return autoPromotionSources(
      records.stages.map(stage => ({
        name: stage.name,
        requiresApproval: approvalStages.includes(stage.name),
        digests: stage.release.services,
      })),
    );
  }

  private async buildStage(
    product: ProductRef,
    stage: StageRecords,
    records: ProductRecords,
    listing: ApplicationListing,
    healthError: string | undefined,
    headRevision: string,
    headIndex: RepoFileIndex,
    readHealth: boolean,
  ): Promise<LadderStage> {
    const appName = applicationName(product, stage.name);
    const observed = listing.applications.find(
      candidate => candidate.application.metadata?.name === appName,
    );
    const stageServices = records.services.filter(
      service =>
        Boolean(stage.release.services[service]) ||
        stage.environment.services.includes(service),
    );
    const observation = observed && readHealth
      ? await this.observe(observed, stageServices)
      : undefined;
    const carriesRelease = observation
      ? await platformRevisionsCarryingRelease({
          repo: this.options.repo,
          platformRepo: this.options.config.platformRepo,
          application: observation.application,
          releasePath: stage.release.path,
          releasedDigests: Object.fromEntries(
            stageServices.map(service => [service, stage.release.services[service]]),
          ),
          headRevision,
          headIndex,
          logger: this.options.logger,
        })
      : {};
    const now = this.clock.now();

    const healths: Record<string, ServiceHealth> = {};
    const services: Record<string, LadderServiceCell> = {};
    for (const service of stageServices) {
      const digest = stage.release.services[service];
      const declared = stage.environment.services.includes(service);
      const health = readHealth
        ? evaluateServiceHealth(service, {
            releasedDigest: digest,
            application: observation?.application,
            applicationLookupError: observed ? undefined : healthError,
            platformRepo: this.options.config.platformRepo,
            platformRevisionCarriesRelease: carriesRelease[service],
            rollout: observation?.rollouts.get(service),
            applicationName: appName,
            product,
            imageNaming: this.options.config.images,
            now,
          })
        : healthNotRead(`Health not read: no promotion leaves ${stage.name} now`);
      if (digest) healths[service] = health;
      services[service] = {
        digest,
        declared,
        healthy: health.healthy,
        verdict: health.verdict,
        reasons: health.reasons,
        checks: health.checks,
        runningDigests: health.runningDigests,
        canary: health.canary,
        rolloutHealth: health.rolloutHealth,
        waitingToClimb: false,
      };
    }

    const stageHealth = evaluateStageHealth(healths);
    const app = observed?.application;
    return {
      name: stage.name,
      requiresApproval: this.options.config.approval.stages.includes(stage.name),
      soakSeconds: this.options.config.soakSeconds[stage.name],
      healthy: stageHealth.healthy,
      verdict: stageHealth.verdict,
      reasons: stageHealth.reasons,
      services,
      release: stage.release.summary,
      environment: stage.environment.summary,
      application: {
        name: appName,
        source: observed?.source,
        syncStatus: app?.status?.sync?.status,
        healthStatus: app?.status?.health?.status,
        revision: syncedRevision(app),
        reconciledAt: app?.status?.reconciledAt
          ? new Date(app.status.reconciledAt).toISOString()
          : undefined,
        url: observed?.uiUrl,
        healthMessage: app?.status?.health?.message,
        operationPhase: app?.status?.operationState?.phase,
        operationMessage: app?.status?.operationState?.message,
        operationFinishedAt: app?.status?.operationState?.finishedAt
          ? new Date(app.status.operationState.finishedAt).toISOString()
          : undefined,
      },
    };
  }

  /**
   * How each differing digest below compares with the one above it. Without
   * the history (GitHub failing) the age stays unknown: the ladder still
   * answers, and the auto-promoter then never calls a digest newer.
   */
  private async markIncomingAges(product: ProductRef, stages: LadderStage[], readHistory: boolean) {
    const { digestAges, logger } = this.options;
    if (!digestAges) return;
    const cells = stages.slice(1).flatMap((stage, i) =>
      Object.entries(stage.services).flatMap(([service, cell]) => {
        const candidate = stages[i].services[service]?.digest;
        return cell.digest && candidate && candidate !== cell.digest
          ? [{ cell, question: { toStage: stage.name, service, candidate, current: cell.digest } }]
          : [];
      }),
    );
    if (!cells.length) return;
    try {
      const ages = await digestAges.judge(product, cells.map(c => c.question), { readHistory });
      cells.forEach(({ cell }, i) => {
        if (ages[i]) cell.incomingAge = ages[i];
      });
    } catch (error) {
      logger.warn(
        `Could not read the Release history of ${product.team}/${product.product} to tell older digests from newer: ${error}`,
      );
    }
  }

  /** The Application with its resource health and the live Rollouts that need explaining. */
  private async observe(
    observed: ObservedApplication,
    services: string[],
  ): Promise<ApplicationObservation> {
    const { healthSource, logger } = this.options;
    if (!healthSource) return { application: observed.application, rollouts: new Map() };
    return observeApplication(healthSource, observed, services, logger);
  }
}

/** What can be promoted into each rung and each cell now, and why not. */
function markPromotability(ladder: Ladder) {
  for (const stage of ladder.stages.slice(1)) {
    stage.promotion = promotability(ladder, stage.name);
    for (const [service, cell] of Object.entries(stage.services)) {
      cell.promotion = promotability(ladder, stage.name, service);
    }
  }
}

/** A cell waits to climb when the stage below names a different digest. */
function markWaitingToClimb(stages: LadderStage[]) {
  for (let i = 1; i < stages.length; i++) {
    const below = stages[i - 1];
    for (const [service, cell] of Object.entries(stages[i].services)) {
      cell.waitingToClimb = isWaitingToClimb(cell, below.services[service]?.digest);
    }
  }
}
