import {
  AuditorService,
  AuthService,
  CacheService,
  LoggerService,
  PermissionsService,
  RootConfigService,
  SchedulerService,
} from '@backstage/backend-plugin-api';
import { CatalogService } from '@backstage/plugin-catalog-node';
import { NotificationService } from '@backstage/plugin-notifications-node';
import { SignalsService } from '@backstage/plugin-signals-node';
import { BroadcastingPromotionStore } from '../database/BroadcastingPromotionStore';
import { PromotionsBroadcaster } from '../promotions/PromotionsBroadcaster';
import { Knex } from 'knex';
import { Ladder, ProductRef } from '@refplat/plugin-promotions-common';
import { readPromotionsConfig } from '../config';
import { DatabaseAutoDecisionStore } from '../database/AutoDecisionStore';
import { DatabasePromotionStore } from '../database/DatabasePromotionStore';
import { DatabaseHealthySinceStore } from '../database/HealthySinceStore';
import { DatabaseHoldStore } from '../database/HoldStore';
import { DatabaseNotificationClaimStore } from '../database/NotificationClaimStore';
import { LIVE_STATUSES } from '../database/PromotionStore';
import { createOctokit } from '../github/createOctokit';
import { PlatformRepoReader } from '../github/PlatformRepoReader';
import { PlatformRepoWriter } from '../github/PlatformRepoWriter';
import { readCacheTtlMs } from '../health/cacheTtl';
import { coalescedHealthSource, configuredHealthSource, createHealthStream } from '../health/createHealthSource';
import { HealthSource, listingsByProduct } from '../health/HealthSource';
import { LadderAnnotations } from '../ladder/LadderAnnotations';
import { LadderDiagnosis } from '../ladder/LadderDiagnosis';
import { ProductHealthChanged } from '../health/ProductHealthChanged';
import { liveProductPromotionsCheck } from '../promotions/checkLivePromotions';
import { STUCK_CLAIM_TTL_MS, StuckNotifier } from '../promotions/StuckNotifier';
import { StuckSweep } from '../promotions/StuckSweep';
import { annotateApprovals } from '../ladder/annotateApprovals';
import { KnownProducts } from './KnownProducts';
import { catalogDirectory } from './catalogDirectory';
import { readRequireOwnership } from './ProductAccess';
import { LadderService } from '../ladder/LadderService';
import { SharedLadders } from '../ladder/SharedLadders';
import { productsAt } from '../ladder/readProductRecords';
import { OverviewModel } from './OverviewModel';
import { ApprovalRights } from '../promotions/ApprovalRights';
import { ApprovalService } from '../promotions/ApprovalService';
import { ApprovalsInbox } from '../promotions/ApprovalsInbox';
import { PromotionCloser } from '../promotions/PromotionCloser';
import { AutoPromoter } from '../promotions/AutoPromoter';
import { Gate } from '../promotions/Gate';
import { PromotionOpener } from '../promotions/PromotionOpener';
import { PromotionReconciler } from '../promotions/PromotionReconciler';
import { PromotionService } from '../promotions/PromotionService';
import { RequestSnapshots } from '../promotions/RequestSnapshot';
import { DigestAges } from '../promotions/DigestAges';
import { StageHistory } from '../promotions/StageHistory';
import { WhatChanged } from '../promotions/WhatChanged';
import { DeliveryMetricsService } from '../metrics/DeliveryMetricsService';
import { DigestTimelineReader } from '../metrics/DigestTimelineReader';
import { DigestTimelineStore } from '../metrics/DigestTimelineStore';
import { RecordedReleaseTimelines } from '../metrics/RecordedReleaseTimelines';
import type { ActorNames, ProductOwners, PromotionGuard, PromotionsDirectory, PullRequestInfo } from '@refplat/plugin-promotions-node';
import { systemClock } from '@refplat/plugin-promotions-node';
import { PromotionGuards } from '../guards/PromotionGuards';
import { freezeGuard } from '../guards/freezeGuard';
import { annotateGuards } from '../guards/annotateGuards';
import { incidentGuard } from '../guards/incidentGuard';
import { createProvenance } from '../provenance/createProvenance';
import { annotateIncidents } from '../incidents/annotateIncidents';
import { IncidentApprovals } from '../incidents/IncidentApprovals';
import { IncidentService } from '../incidents/IncidentService';
import { DatabaseIncidentStore } from '../incidents/IncidentStore';
import { PromotionQueue, WRITE_QUEUE_TASK } from '../promotions/PromotionQueue';
import { DatabaseWriteLedger } from '../database/DatabaseWriteLedger';

/** How far back a ladder view looks for live promotions and for how each digest arrived. */
const RECENT_PROMOTIONS = 50;
/** How many cache TTLs apart the overview sweeps every ladder again (30 s by default)… */
const OVERVIEW_REFRESH_TTLS = 6;
/** …and after how many it no longer shows rows while sweeping (2 min by default). */
const OVERVIEW_MAX_STALE_TTLS = 24;

export interface PromotionsServiceDeps {
  rootConfig: RootConfigService;
  cache: CacheService;
  /** The plugin's database, migrated. */
  db: Knex;
  logger: LoggerService;
  catalog: CatalogService;
  auth: AuthService;
  permissions: PermissionsService;
  signals?: SignalsService;
  notifications?: NotificationService;
  /** Guards added by backend modules through promotionsGuardsExtensionPoint. */
  addedGuards?: PromotionGuard[];
  /** A module's health source (promotionsHealthSourceExtensionPoint); the configured one when not given. */
  healthSource?: HealthSource;
  /** A module's directory (promotionsDirectoryExtensionPoint); the catalog when not given. */
  directory?: PromotionsDirectory;
  auditor: AuditorService;
  /** Runs the write queue's task (WRITE_QUEUE_TASK, which the plugin schedules); without it, queued promotions open in this process at once. */
  scheduler?: SchedulerService;
}

/** Wires the plugin's services from Backstage's; the plugin adds HTTP and scheduling. */
export function createPromotionsServices(deps: PromotionsServiceDeps) {
  const { rootConfig, cache, db, logger, catalog, auth, permissions } = deps;
  const config = readPromotionsConfig(rootConfig);
  const appBaseUrl = rootConfig.getOptionalString('app.baseUrl');
  const entityUrl = appBaseUrl
    ? (product: { product: string }) => `${appBaseUrl}/catalog/default/system/${product.product}`
    : undefined;
  const directory = deps.directory ?? catalogDirectory({ catalog, auth, cache, logger });
  const owners: ProductOwners = directory;
  const names: ActorNames = directory;
  const approvalRights = new ApprovalRights({
    config,
    owners,
    directory,
    permissions,
    logger,
  });
  const approversOf = (product: ProductRef) => approvalRights.approversOf(product);
  const broadcaster = new PromotionsBroadcaster({
    signals: deps.signals,
    notifications: deps.notifications,
    approvers: approversOf,
    approvalStages: config.approval.stages,
    entityUrl,
    logger,
    names,
  });
  // Every replica's writes count against one identity's limit at GitHub: they share their count here.
  const writeLedger = new DatabaseWriteLedger(db, config.platformRepo.host);
  const octokit = createOctokit({ config: rootConfig, ...config.platformRepo, logger, writeLedger });
  const cacheTtlMs = readCacheTtlMs(rootConfig);
  const reader = new PlatformRepoReader(
    octokit,
    cache,
    config.platformRepo,
    [config.releasesPath, config.environmentsPath],
    cacheTtlMs,
  );
  const writer = new PlatformRepoWriter(octokit, config.platformRepo);
  const store = new BroadcastingPromotionStore(new DatabasePromotionStore(db), broadcaster);
  const holds = new DatabaseHoldStore(db);
  const healthySince = new DatabaseHealthySinceStore(db);
  const autoDecisions = new DatabaseAutoDecisionStore(db);
  const incidents = new DatabaseIncidentStore(db);
  const incidentApprovals = config.incidents
    ? new IncidentApprovals({ policy: config.incidents, incidents, store, rights: approvalRights })
    : undefined;
  const provenance = createProvenance({
    config: config.provenance,
    images: config.images,
    db,
    clock: systemClock,
    // A cell a view answered "checking" for has its verdict: the open ladders refresh.
    onSettled: service => void broadcaster.productChanged(service, 'provenance-checked'),
  });
  const guards = new PromotionGuards(
    [
      ...(config.freezes.length ? [freezeGuard(config.freezes)] : []),
      ...(provenance ? [provenance.guard] : []),
      ...(config.incidents && incidentApprovals
        ? [incidentGuard({ policy: config.incidents, incidents, store, approvals: incidentApprovals, names })]
        : []),
      ...(deps.addedGuards ?? []),
    ],
    logger,
  );
  const recentPromotions = (product: ProductRef) =>
    store.listForProduct(product.team, product.product, RECENT_PROMOTIONS);
  const livePromotions = async (product: ProductRef) =>
    (await recentPromotions(product)).filter(p => LIVE_STATUSES.includes(p.status));
  const timelines = new DigestTimelineStore(db);
  const annotations = new LadderAnnotations({
    holds,
    healthySince,
    autoDecisions,
    recentPromotions,
    branchArrivals: config.metrics.enabled ? product => timelines.latestArrivals(product) : undefined,
  });
  const healthSource = coalescedHealthSource(deps.healthSource ?? configuredHealthSource(config, cache), cacheTtlMs);
  const diagnosis = new LadderDiagnosis({ config, cache, logger });
  const stuckNotifier = new StuckNotifier({
    claims: new DatabaseNotificationClaimStore(db, STUCK_CLAIM_TTL_MS),
    owners,
    send: (product, productOwners, stage, service, why) =>
      broadcaster.stuck(product, productOwners, stage, service, why),
  });

  const stageHistory = new StageHistory({ config, writer, files: reader, store, cache });
  const timelineReader = new DigestTimelineReader({ config, octokit, reader, store: timelines, logger });
  const ladderService = new LadderService({
    config,
    repo: reader,
    healthSource,
    logger,
    digestAges: new DigestAges({
      stages: config.stages,
      timelines: stageHistory,
      recorded: config.metrics.enabled
        ? new RecordedReleaseTimelines({ files: reader, timelineReader, store: timelines, logger })
        : undefined,
      cache,
    }),
    approvers: approversOf,
    annotate: async ladder => {
      await annotations.annotate(ladder);
      await provenance?.annotate(ladder);
      // Before the diagnosis: its checklist lists the guards' verdicts.
      await annotateGuards(ladder, guards, config.freezes);
      if (config.incidents) annotateIncidents(ladder, config.incidents, await incidents.listOpen(ladder));
      // After the incidents: their gate says whether a commander's approval is needed too.
      await annotateApprovals(
        ladder,
        await approvalRights.policyOf(ladder),
        id => store.listEvents(id),
        config.approval.requireDistinctApprover,
      );
      // No notification from here: a view is not an event (see stuckSweep, the Gate and productHealthChanged).
      await diagnosis.annotate(ladder);
    },
    livePromotions,
  });
  const sharedLadders = new SharedLadders({
    builder: ladderService,
    headCommit: () => reader.headCommit(),
    ttlMs: cacheTtlMs,
  });
  broadcaster.onProductChanged(product => sharedLadders.productChanged(product));
  const allProducts = async () => productsAt(config, await reader.fileIndex(await reader.headCommit()));
  const sweepLadders = async () => {
    // One Application list for all Products, as the auto-promoter's scan reads it, not one per Product.
    const listingFor = listingsByProduct(await ladderService.listApplications(), config.applicationLabels);
    return (product: ProductRef) => sharedLadders.get(product, listingFor(product));
  };
  const notifyStuck = config.stuckNotifications.enabled
    ? (ladder: Ladder) => stuckNotifier.notifyStuck(ladder)
    : undefined;
  const stuckSweep = new StuckSweep({
    products: allProducts,
    sweepLadders,
    notifyStuck: ladder => stuckNotifier.notifyStuck(ladder),
    logger,
  });
  const overviewModel = new OverviewModel({
    products: allProducts,
    ladder: product => sharedLadders.get(product),
    sweepLadders,
    owners: product => owners.of(product),
    // A sweep builds every ladder: a few TTLs apart keeps it a small share of the machine. The
    // stuck thresholds are minutes, and the plugin's own changes arrive as signals at once.
    refreshMs: cacheTtlMs * OVERVIEW_REFRESH_TTLS,
    maxStaleMs: cacheTtlMs * OVERVIEW_MAX_STALE_TTLS,
    logger,
  });
  broadcaster.onProductChanged(product => overviewModel.productChanged(product));
  /** The request path's opener and the Gate's differ only in the GitHub client they write with. */
  const openerWritingWith = (repoWriter: PlatformRepoWriter) =>
    new PromotionOpener({
      config,
      store,
      writer: repoWriter,
      logger,
      entityUrl,
      approval: product => approvalRights.policyOf(product),
      names,
      files: reader,
    });
  const opener = openerWritingWith(writer);
  // The Gate's GitHub calls are not retried within a run: the next run retries.
  const gateOctokit = createOctokit({ config: rootConfig, ...config.platformRepo, logger, retries: 0, writeLedger });
  reader.forgetHeadAfterWritesBy(gateOctokit);
  // With the cache, the Gate's lists are conditional: an unchanged run is answered 304, not charged.
  const gateWriter = new PlatformRepoWriter(gateOctokit, config.platformRepo, cache);
  const gateOpener = openerWritingWith(gateWriter);
  const reconciler = new PromotionReconciler({ config, store, writer: gateWriter, opener: gateOpener, logger });
  const gate = new Gate({
    config,
    store,
    writer: gateWriter,
    files: reader,
    ladder: ladderService,
    opener: gateOpener,
    reconciler,
    guards,
    logger,
    names,
    ladderSeen: notifyStuck,
  });
  // A request or approval is looked at right away, not at the next tick.
  // The PR a request just opened is as GitHub answered it: the check needs no read of it.
  const onChange = (id: string, opened?: PullRequestInfo) => {
    void gate.check(id, opened && new Map([[opened.number, opened]]));
  };
  // Bulk work's PRs open in their turn; its writes wait behind people's for the write budget.
  const promotionQueue = new PromotionQueue({ config, store, opener, files: reader, logger, onOpened: onChange });
  const drainQueue = async () => {
    if (deps.scheduler) {
      // The plugin's global task drains, one replica at a time; one running already looks again.
      await deps.scheduler.triggerTask(WRITE_QUEUE_TASK).catch(() => undefined);
      return;
    }
    await promotionQueue.drain().catch(error => logger.warn(`Write queue stopped: ${error}`));
  };
  const productHealthChanged = new ProductHealthChanged({
    healthSource,
    repo: reader,
    productChanged: product => broadcaster.productChanged(product, 'health'),
    checkLivePromotions: liveProductPromotionsCheck({ livePromotions, check: id => gate.check(id) }),
    notifyStuck: notifyStuck && (async product => notifyStuck(await sharedLadders.get(product))),
  });
  // Started and stopped by the plugin's lifecycle: one per backend, whatever the number of viewers.
  const healthStream = createHealthStream(config, logger, product => productHealthChanged.handle(product));
  const promotionService = new PromotionService({
    config,
    // Not the views' annotated ladder: a request reads its Product's records, the stage below's health and the holds.
    snapshots: new RequestSnapshots({
      config,
      ladder: new LadderService({ config, repo: reader, healthSource, logger }),
      holds,
      healthySince,
    }),
    store,
    writer,
    opener,
    guards,
    logger,
    onChange,
    onQueued: () => void drainQueue(),
    holds,
    names,
    wasReleasedIn: (product, stage, service, digest) =>
      stageHistory.wasReleased(product, stage, service, digest),
  });
  const approvalService = new ApprovalService({
    config,
    store,
    writer,
    rights: approvalRights,
    permissions,
    logger,
    onChange,
    incidentApprovals,
    names,
  });
  const incidentService = config.incidents
    ? new IncidentService({
        policy: config.incidents,
        incidents,
        store,
        settleApproval: promotion => approvalService.settle(promotion),
        livePromotions,
        checkPromotion: id => gate.check(id),
        productChanged: (product, what) => broadcaster.productChanged(product, what),
        auditor: deps.auditor,
        logger,
      })
    : undefined;
  const autoPromoter = new AutoPromoter({
    config,
    reader,
    ladder: ladderService,
    promotions: promotionService,
    healthSource,
    holds,
    healthySince,
    decisions: autoDecisions,
    catalog,
    auth,
    logger,
  });

  const whatChanged = new WhatChanged({ config, reader, octokit, cache, attestedSource: provenance?.attestedSource });

  return {
    config,
    guards,
    broadcaster,
    healthStream,
    whatChanged,
    store,
    promotionQueue,
    holds,
    autoDecisions,
    ladderService,
    sharedLadders,
    overviewModel,
    cacheTtlMs,
    gate,
    stuckSweep,
    reader,
    promotionService,
    approvalService,
    approvalRights,
    incidentService,
    approvalsInbox: new ApprovalsInbox({
      config,
      store,
      rights: approvalRights,
      permissions,
      incidentApprovals,
      ladder: product => sharedLadders.get(product),
      logger,
    }),
    closer: new PromotionCloser({ config, store, writer, rights: approvalRights, permissions, logger, names }),
    stageHistory,
    autoPromoter,
    timelineReader,
    digestTimelines: timelines,
    deliveryMetrics: new DeliveryMetricsService({ config, store: timelines, permissions }),
    owners,
    knownProducts: new KnownProducts(reader, config),
    requireOwnership: readRequireOwnership(rootConfig),
  };
}
