import { Ladder, ProductRef } from '@refplat/plugin-promotions-common';
import { annotateQueueOpening } from '../ladder/annotateQueueOpening';
import { LIVE_STATUSES } from '../database/PromotionStore';
import { coalescedHealthSource, configuredHealthSource } from '../health/createHealthSource';
import { listingsByProduct } from '../health/HealthSource';
import { annotateGuards } from '../guards/annotateGuards';
import { annotateIncidents } from '../incidents/annotateIncidents';
import { annotateApprovals } from '../ladder/annotateApprovals';
import { LadderAnnotations } from '../ladder/LadderAnnotations';
import { LadderDiagnosis } from '../ladder/LadderDiagnosis';
import { LadderService } from '../ladder/LadderService';
import { productsAt } from '../ladder/readProductRecords';
import { SharedLadders } from '../ladder/SharedLadders';
import { DigestTimelineReader } from '../metrics/DigestTimelineReader';
import { RecordedReleaseTimelines } from '../metrics/RecordedReleaseTimelines';
import { DigestAges } from '../promotions/DigestAges';
import { StageHistory } from '../promotions/StageHistory';
import { StuckNotifier } from '../promotions/StuckNotifier';
import { StuckSweep } from '../promotions/StuckSweep';
import { OverviewModel } from '../service/OverviewModel';
import { PartDeps } from './deps';
import { GuardParts } from './guardParts';
import { PeopleParts } from './peopleParts';
import { PlatformRepoParts } from './platformRepoParts';
import { StoreParts } from './storeParts';

/** How far back a ladder view looks for live promotions and for how each digest arrived. */
const RECENT_PROMOTIONS = 50;
/** How many cache TTLs apart the overview sweeps every ladder again (30 s by default)… */
const OVERVIEW_REFRESH_TTLS = 6;
/** …and after how many it no longer shows rows while sweeping (2 min by default). */
const OVERVIEW_MAX_STALE_TTLS = 24;

/**
 * The ladders people look at, built once per Product and change and shared
 * by every viewer, with what annotates them (holds, soak, provenance, guards,
 * incidents, approvals, the diagnosis), and the sweeps over every Product:
 * the overview's and the stuck notifications'.
 */
export function ladderParts(
  { config, cache, logger, ...deps }: PartDeps,
  repo: PlatformRepoParts,
  stores: StoreParts,
  people: PeopleParts,
  { guards, provenance }: GuardParts,
) {
  const { files, cacheTtlMs } = repo;
  const { promotions: store, timelines } = stores;
  const { approvalRights, broadcaster } = people;
  const recentPromotions = (product: ProductRef) => store.listForProduct(product.team, product.product, RECENT_PROMOTIONS);
  const livePromotions = async (product: ProductRef) =>
    (await recentPromotions(product)).filter(p => LIVE_STATUSES.includes(p.status));
  const annotations = new LadderAnnotations({
    holds: stores.holds,
    healthySince: stores.healthySince,
    autoDecisions: stores.autoDecisions,
    recentPromotions,
    branchArrivals: config.metrics.enabled ? product => timelines.latestArrivals(product) : undefined,
  });
  const healthSource = coalescedHealthSource(deps.healthSource ?? configuredHealthSource(config, cache, logger), cacheTtlMs);
  const diagnosis = new LadderDiagnosis({
    config,
    cache,
    logger,
    hopEvidence: healthSource?.hopEvidence,
    evidenceArrived: product => void broadcaster.productChanged(product, 'hop-evidence'),
  });
  const stageHistory = new StageHistory({ config, writer: repo.requestWriter, files, store, cache });
  const timelineReader = new DigestTimelineReader({ config, octokit: repo.octokit, reader: repo.reader, store: timelines, logger });
  const ladderService = LadderService.forViews({ config, repo: files, healthSource, logger }, {
    digestAges: new DigestAges({
      stages: config.stages,
      timelines: stageHistory,
      recorded: config.metrics.enabled
        ? new RecordedReleaseTimelines({ files, timelineReader, store: timelines, logger })
        : undefined,
      cache,
    }),
    approvers: product => approvalRights.approversOf(product),
    annotate: async (ladder, listing) => {
      await annotations.annotate(ladder);
      await provenance?.annotate(ladder);
      // Before the diagnosis: its checklist lists the guards' verdicts.
      await annotateGuards(ladder, guards, config.freezes);
      if (config.incidents) annotateIncidents(ladder, config.incidents, await stores.incidents.listOpen(ladder));
      // After the incidents: their gate says whether a commander's approval is needed too.
      await annotateApprovals(
        ladder,
        await approvalRights.policyOf(ladder),
        id => store.listEvents(id),
        config.approval.requireDistinctApprover,
      );
      annotateQueueOpening(ladder, () => repo.writeBudget?.reading(), new Date());
      // No notification from here: a view is not an event (see stuckSweep, the Gate and productHealthChanged).
      await diagnosis.annotate(ladder, listing);
    },
    livePromotions,
  });
  const sharedLadders = new SharedLadders({ builder: ladderService, headCommit: () => files.headCommit(), ttlMs: cacheTtlMs });
  broadcaster.onProductChanged(product => sharedLadders.productChanged(product));
  const allProducts = async () => productsAt(config, await files.fileIndex(await files.headCommit()));
  const sweepLadders = async () => {
    // One Application list for all Products, as the auto-promoter's scan reads it, not one per Product.
    const listingFor = listingsByProduct(await ladderService.listApplications(), config.applicationLabels);
    return (product: ProductRef) => sharedLadders.get(product, listingFor(product));
  };
  const stuckNotifier = new StuckNotifier({
    claims: stores.stuckClaims,
    owners: people.directory,
    send: (product, productOwners, stage, service, why) => broadcaster.stuck(product, productOwners, stage, service, why),
  });
  const overviewModel = new OverviewModel({
    products: allProducts,
    ladder: product => sharedLadders.get(product),
    sweepLadders,
    owners: product => people.directory.of(product),
    // A sweep builds every ladder: a few TTLs apart keeps it a small share of the machine. The
    // stuck thresholds are minutes, and the plugin's own changes arrive as signals at once.
    refreshMs: cacheTtlMs * OVERVIEW_REFRESH_TTLS,
    maxStaleMs: cacheTtlMs * OVERVIEW_MAX_STALE_TTLS,
    logger,
  });
  broadcaster.onProductChanged(product => overviewModel.productChanged(product));
  return {
    healthSource,
    livePromotions,
    ladderService,
    sharedLadders,
    overviewModel,
    stageHistory,
    timelineReader,
    stuckSweep: new StuckSweep({
      products: allProducts,
      sweepLadders,
      notifyStuck: ladder => stuckNotifier.notifyStuck(ladder),
      logger,
    }),
    /** Tells the owners of what a ladder shows stuck, when stuck notifications are on. */
    notifyStuck: config.stuckNotifications.enabled ? (ladder: Ladder) => stuckNotifier.notifyStuck(ladder) : undefined,
  };
}

export type LadderParts = ReturnType<typeof ladderParts>;
