import type { PlatformRepo, PullRequestInfo } from '@refplat/plugin-promotions-node';
import { createHealthStream } from '../health/createHealthSource';
import { ProductHealthChanged } from '../health/ProductHealthChanged';
import { IncidentService } from '../incidents/IncidentService';
import { LadderService } from '../ladder/LadderService';
import { ApprovalService } from '../promotions/ApprovalService';
import { ApprovalsInbox } from '../promotions/ApprovalsInbox';
import { AutoPromoter } from '../promotions/AutoPromoter';
import { liveProductPromotionsCheck } from '../promotions/checkLivePromotions';
import { FleetGate } from '../promotions/FleetGate';
import { FleetOpener } from '../promotions/FleetOpener';
import { Gate } from '../promotions/Gate';
import { PromotionCloser } from '../promotions/PromotionCloser';
import { PromotionOpener } from '../promotions/PromotionOpener';
import { PromotionQueue, WRITE_QUEUE_TASK } from '../promotions/PromotionQueue';
import { PromotionReconciler } from '../promotions/PromotionReconciler';
import { PromotionService } from '../promotions/PromotionService';
import { RequestSnapshots } from '../promotions/RequestSnapshot';
import { PartDeps } from './deps';
import { GuardParts } from './guardParts';
import { LadderParts } from './ladderParts';
import { PeopleParts } from './peopleParts';
import { PlatformRepoParts } from './platformRepoParts';
import { StoreParts } from './storeParts';

/**
 * A promotion's way: requested (PromotionService), opened as a Release PR
 * (PromotionOpener, or the write queue for bulk work), gated and merged (Gate,
 * with the reconciler for what a stopped replica left), approved, closed; the
 * auto-promoter requests, and health changes and incidents wake the Gate.
 */
export function promotionParts(
  deps: PartDeps,
  repo: PlatformRepoParts,
  stores: StoreParts,
  people: PeopleParts,
  { guards, incidentApprovals }: GuardParts,
  ladders: LadderParts,
) {
  const { config, logger, scheduler } = deps;
  const { files } = repo;
  const { promotions: store, holds } = stores;
  const { approvalRights: rights, broadcaster, directory: names } = people;
  /** The request path's opener and the Gate's differ only in the GitHub client they write with. */
  const openerWritingWith = (writer: PlatformRepo) =>
    new PromotionOpener({
      config,
      store,
      writer,
      logger,
      entityUrl: people.entityUrl,
      approval: product => rights.policyOf(product),
      names,
      files,
    });
  const requestOpener = openerWritingWith(repo.requestWriter);
  const gateOpener = openerWritingWith(repo.gateWriter);
  const reconciler = new PromotionReconciler({ config, store, writer: repo.gateWriter, opener: gateOpener, logger });
  // Fleet mode (opt-in): the auto-promoter's promotions up one rung share a PR, which the Gate judges Product by Product.
  const fleet = config.autoPromote.fleet.enabled
    ? {
        opener: new FleetOpener({ config, store, writer: repo.requestWriter, files, names, logger, entityUrl: people.entityUrl }),
        gate: new FleetGate({ config, store, writer: repo.gateWriter, files, ladder: ladders.ladderService, guards, logger }),
      }
    : undefined;
  const gate = new Gate({
    config,
    store,
    writer: repo.gateWriter,
    files,
    ladder: ladders.ladderService,
    opener: gateOpener,
    reconciler,
    guards,
    logger,
    names,
    ladderSeen: ladders.notifyStuck,
    fleet: fleet?.gate,
  });
  // A request or approval is looked at right away, not at the next tick.
  // The PR a request just opened is as GitHub answered it: the check needs no read of it.
  const onChange = (id: string, opened?: PullRequestInfo) => {
    void gate.check(id, opened && new Map([[opened.number, opened]]));
  };
  // Bulk work's PRs open in their turn; its writes wait behind people's for the write budget.
  const promotionQueue = new PromotionQueue({
    config,
    store,
    opener: requestOpener,
    files,
    logger,
    onOpened: onChange,
    writeBudget: () => repo.writeBudget?.reading(),
    fleetOpener: fleet?.opener,
  });
  const drainQueue = async () => {
    if (scheduler) {
      // The plugin's global task drains, one replica at a time; one running already looks again.
      await scheduler.triggerTask(WRITE_QUEUE_TASK).catch(() => undefined);
      return;
    }
    await promotionQueue.drain().catch(error => logger.warn(`Write queue stopped: ${error}`));
  };
  const productHealthChanged = new ProductHealthChanged({
    healthSource: ladders.healthSource,
    repo: repo.reader,
    productChanged: product => broadcaster.productChanged(product, 'health'),
    checkLivePromotions: liveProductPromotionsCheck({ livePromotions: ladders.livePromotions, check: id => gate.check(id) }),
    notifyStuck:
      ladders.notifyStuck && (async product => ladders.notifyStuck!(await ladders.sharedLadders.get(product))),
  });
  const promotionService = new PromotionService({
    config,
    // Not the views' annotated ladder: a request reads its Product's records, the stage below's health and the holds.
    snapshots: new RequestSnapshots({
      config,
      ladder: LadderService.recordsAndHealth({ config, repo: files, healthSource: ladders.healthSource, logger }),
      holds,
      healthySince: stores.healthySince,
    }),
    store,
    writer: repo.requestWriter,
    opener: requestOpener,
    guards,
    logger,
    onChange,
    onQueued: () => void drainQueue(),
    holds,
    names,
    wasReleasedIn: (product, stage, service, digest) => ladders.stageHistory.wasReleased(product, stage, service, digest),
  });
  const approvalService = new ApprovalService({
    config,
    store,
    writer: repo.requestWriter,
    rights,
    logger,
    onChange,
    incidentApprovals,
    names,
  });
  return {
    gate,
    reconciler,
    promotionQueue,
    promotionService,
    approvalService,
    // Started and stopped by the plugin's lifecycle: one per backend, whatever the number of viewers.
    healthStream: createHealthStream(config, logger, product => productHealthChanged.handle(product)),
    incidentService: config.incidents
      ? new IncidentService({
          policy: config.incidents,
          incidents: stores.incidents,
          store,
          settleApproval: promotion => approvalService.settle(promotion),
          livePromotions: ladders.livePromotions,
          checkPromotion: id => gate.check(id),
          productChanged: (product, what) => broadcaster.productChanged(product, what),
          auditor: deps.auditor,
          logger,
        })
      : undefined,
    autoPromoter: new AutoPromoter({
      config,
      reader: files,
      ladder: ladders.ladderService,
      promotions: promotionService,
      healthSource: ladders.healthSource,
      holds,
      healthySince: stores.healthySince,
      decisions: stores.autoDecisions,
      catalog: deps.catalog,
      auth: deps.auth,
      logger,
    }),
    approvalsInbox: new ApprovalsInbox({
      config,
      store,
      rights,
      incidentApprovals,
      ladder: product => ladders.sharedLadders.get(product),
      logger,
    }),
    closer: new PromotionCloser({ config, store, writer: repo.requestWriter, rights, logger, names }),
  };
}

export type PromotionParts = ReturnType<typeof promotionParts>;
