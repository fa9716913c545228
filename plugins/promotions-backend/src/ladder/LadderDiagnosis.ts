import { CacheService, LoggerService } from '@backstage/backend-plugin-api';
import {
  HopEvidence,
  Ladder,
  LadderServiceCell,
  LadderStage,
  Promotion,
  ProductRef,
  diagnose,
  needsHopEvidence,
  promotionChecklist,
} from '@refplat/plugin-promotions-common';
import { PromotionsConfig } from '../config';
import { Clock, systemClock } from '@refplat/plugin-promotions-node';
import type { PromotionRecord } from '../database/PromotionStore';
import type { ApplicationListing, ClusterEvidence, ObservedApplication } from '../health/HealthSource';

type LivePromotion = Promotion & Pick<PromotionRecord, 'healthState'>;

/** The health rules held the Application's aggregate health against this service. */
function countsApplicationHealth(cell: LadderServiceCell): boolean {
  return cell.checks?.find(c => c.id === 'app-health')?.verdict !== 'healthy';
}

const SEEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * How long a view waits for hop evidence it does not have yet. Past it, the view answers
 * without; the read goes on and is kept (CoalescingHealthSource), so the next view shows it.
 */
const DEFAULT_EVIDENCE_BUDGET_MS = 1500;

/** Reads a service's evidence in the cluster (HealthSource.hopEvidence). */
export type ReadHopEvidence = (observed: ObservedApplication, service: string) => Promise<ClusterEvidence>;

/**
 * Reads each cell the way people read a stalled rollout by hand: the last
 * step that completed, the likely cause, where to look; and lists the gates
 * of a promotion into each cell ("why can't I promote?"). Marks the
 * stages with a stuck cell; telling owners is StuckNotifier's.
 */
export class LadderDiagnosis {
  constructor(
    private readonly options: {
      config: PromotionsConfig;
      cache: CacheService;
      logger: LoggerService;
      /** Stalls are judged, and first seen, at its time; the machine's clock when not given. */
      clock?: Clock;
      /** Where the health source reads hop evidence; without it, no cell has any. */
      hopEvidence?: ReadHopEvidence;
      /** How long a view waits for evidence not read yet (1.5 s). */
      evidenceBudgetMs?: number;
      /** Evidence a view did not wait for has been read: the Product's open ladders can show it. */
      evidenceArrived?: (product: ProductRef) => void;
    },
  ) {}

  /** `listing`: the Applications the ladder was built from, whose cells' evidence may be read. */
  async annotate(ladder: Ladder, listing?: ApplicationListing): Promise<void> {
    const { config } = this.options;
    const now = (this.options.clock ?? systemClock).now();
    const promotions = ladder.promotions as LivePromotion[];
    const evidence = await this.clusterEvidence(ladder, listing);
    for (const [index, stage] of ladder.stages.entries()) {
      const releaseChangedAt = await this.firstSeen(stage);
      stage.releaseSeenAt = releaseChangedAt;
      const below = index > 0 ? ladder.stages[index - 1] : undefined;
      for (const [service, cell] of Object.entries(stage.services)) {
        const promotion = promotions.find(p => p.toStage === stage.name && service in p.services);
        const health = promotion?.healthState;
        cell.diagnosis = diagnose(
          {
            service,
            stage: stage.name,
            promotion: promotion && {
              status: promotion.status,
              requestedBy: promotion.requestedBy,
              pullRequestUrl: promotion.pullRequest.url || undefined,
              healthState: health?.state === 'error' ? 'failure' : health?.state,
              healthDescription: health?.description || undefined,
              since: promotion.updatedAt,
            },
            approvers: ladder.approvers ?? config.approval.approvers,
            releasedDigest: cell.digest,
            releaseChangedAt,
            application: stage.application && {
              name: stage.application.name,
              url: stage.application.url,
              missing: !ladder.healthError && !stage.application.source,
              syncStatus: stage.application.syncStatus,
              healthStatus: stage.application.healthStatus,
              healthMessage: stage.application.healthMessage,
              revision: stage.application.revision,
              reconciledAt: stage.application.reconciledAt,
              operationFinishedAt: stage.application.operationFinishedAt,
              operationPhase: stage.application.operationPhase,
              operationMessage: stage.application.operationMessage,
              unreachable: ladder.healthError,
            },
            releaseApplied: cell.checks?.find(c => c.id === 'revision')?.verdict === 'healthy',
            runningDigests: cell.runningDigests,
            canary: cell.canary,
            // The Rollout's own health, unless the Application's health counts for this service too.
            rolloutHealth: countsApplicationHealth(cell) ? undefined : cell.rolloutHealth,
            serviceHealthy: cell.healthy,
            stageHealthy: stage.healthy,
            releasePath: stage.release.path,
            provenance: cell.provenance,
            hops: hopEvidenceOf(evidence.get(cellKey(stage.name, service)), cell),
            now,
          },
          config.diagnosis,
        );
        if (below) {
          cell.checklist = promotionChecklist(below.services[service], cell, {
            fromStage: below.name,
            toStage: stage.name,
            requiresApproval: stage.requiresApproval,
            approvers: ladder.approvers ?? config.approval.approvers,
            openPromotion: promotion && {
              pullRequestUrl: promotion.pullRequest.url || undefined,
              status: promotion.status,
            },
            guards: stage.guards,
          });
        }
        if (cell.diagnosis.state === 'stuck') stage.stuck = true;
      }
    }
  }

  /**
   * The cluster's evidence of every cell that is not healthy (needsHopEvidence), read together
   * (an Application's cells share its tree read), each waited for within the budget only.
   */
  private async clusterEvidence(
    ladder: Ladder,
    listing: ApplicationListing | undefined,
  ): Promise<Map<string, ClusterEvidence>> {
    const { hopEvidence, logger } = this.options;
    const found = new Map<string, ClusterEvidence>();
    if (!hopEvidence || !listing) return found;
    const reads = ladder.stages.flatMap(stage => {
      const observed = listing.applications.find(
        candidate =>
          candidate.application.metadata?.name === stage.application?.name &&
          candidate.source === stage.application?.source,
      );
      if (!observed) return [];
      return Object.entries(stage.services)
        .filter(([, cell]) => needsHopEvidence(cell))
        .map(async ([service]) => {
          const read = hopEvidence(observed, service).catch(error => {
            logger.warn(`Cannot read the hop evidence of ${service} in ${stage.application?.name}: ${error}`);
            return undefined;
          });
          const answer = await withinMs(read, this.options.evidenceBudgetMs ?? DEFAULT_EVIDENCE_BUDGET_MS);
          if (answer) found.set(cellKey(stage.name, service), answer);
          // The view went on without it: once read (and kept for the TTL), the open ladders rebuild with it.
          else void read.then(late => late && this.options.evidenceArrived?.(ladder));
        });
    });
    await Promise.all(reads);
    return found;
  }

  /** When Backstage first saw the stage's current Release file: "merged at", give or take a poll. */
  private async firstSeen(stage: LadderStage): Promise<string | undefined> {
    if (!stage.release.blobSha) return undefined;
    const key = `release-seen:${stage.release.path}:${stage.release.blobSha}`;
    const seen = await this.options.cache.get<string>(key);
    if (seen) return seen;
    const now = (this.options.clock ?? systemClock).now().toISOString();
    await this.options.cache.set(key, now, { ttl: SEEN_TTL_MS });
    return now;
  }
}

function cellKey(stage: string, service: string): string {
  return `${stage}/${service}`;
}

/** The cluster's evidence with what the ladder knows of the cell: its digest, provenance, canary and soak. */
function hopEvidenceOf(cluster: ClusterEvidence | undefined, cell: LadderServiceCell): HopEvidence | undefined {
  return (
    cluster && {
      ...cluster,
      digest: cell.digest,
      provenance: cell.provenance,
      canary: cell.canary,
      soakRemainingSeconds: cell.soakRemainingSeconds,
    }
  );
}

/** The answer if it comes within `ms`; undefined otherwise (the read goes on without the caller). */
async function withinMs<T>(read: Promise<T | undefined>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>(resolve => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([read, late]);
  } finally {
    clearTimeout(timer);
  }
}
