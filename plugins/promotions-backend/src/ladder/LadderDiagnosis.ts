import { CacheService, LoggerService } from '@backstage/backend-plugin-api';
import {
  Ladder,
  LadderServiceCell,
  LadderStage,
  Promotion,
  diagnose,
  promotionChecklist,
} from '@refplat/plugin-promotions-common';
import { PromotionsConfig } from '../config';
import { Clock, systemClock } from '@refplat/plugin-promotions-node';

type LivePromotion = Promotion & { healthState?: string };

/** The health rules held the Application's aggregate health against this service. */
function countsApplicationHealth(cell: LadderServiceCell): boolean {
  return cell.checks?.find(c => c.id === 'app-health')?.verdict !== 'healthy';
}

const SEEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

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
    },
  ) {}

  async annotate(ladder: Ladder): Promise<void> {
    const { config } = this.options;
    const now = (this.options.clock ?? systemClock).now();
    const promotions = ladder.promotions as LivePromotion[];
    for (const [index, stage] of ladder.stages.entries()) {
      const releaseChangedAt = await this.firstSeen(stage);
      stage.releaseSeenAt = releaseChangedAt;
      const below = index > 0 ? ladder.stages[index - 1] : undefined;
      for (const [service, cell] of Object.entries(stage.services)) {
        const promotion = promotions.find(p => p.toStage === stage.name && service in p.services);
        const [healthState, , healthDescription] = (promotion?.healthState ?? '').split(':');
        cell.diagnosis = diagnose(
          {
            service,
            stage: stage.name,
            promotion: promotion && {
              status: promotion.status,
              requestedBy: promotion.requestedBy,
              pullRequestUrl: promotion.pullRequest.url || undefined,
              healthState: (healthState || undefined) as 'success' | 'pending' | 'failure' | undefined,
              healthDescription: healthDescription || undefined,
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
