import { Ladder, LadderStage, ProductRef, annotateSoak, applicationName } from '@refplat/plugin-promotions-common';
import { Clock, systemClock } from '@refplat/plugin-promotions-node';
import { PromotionsConfig } from '../config';
import { HealthySinceStore } from '../database/HealthySinceStore';
import { HoldStore } from '../database/HoldStore';
import { ApplicationListing } from '../health/HealthSource';
import { LadderService } from '../ladder/LadderService';

/** A rollback reads no health: its stage's Application is not asked about. */
const NO_APPLICATIONS: ApplicationListing = { applications: [], errors: [] };

/**
 * What a Promotion Request decides from, and nothing more: the Product's
 * Release records and Environments at the branch head (one tree), the
 * health of the stage below the target (the only stage whose health the
 * planning rule reads) with its soak, and the holds on the target. The
 * snapshot has the ladder's shape for `planPromotion`, but only those parts
 * are judged: the other stages' Applications are never looked up, and
 * nothing the views add is (guards, incidents, approvals, the diagnosis and
 * its stuck notifications).
 */
export class RequestSnapshots {
  private readonly clock: Clock;

  constructor(
    private readonly options: {
      config: PromotionsConfig;
      /** `LadderService.recordsAndHealth`: the records, and the health of the Applications in the listing given. */
      ladder: Pick<LadderService, 'getLadder' | 'listApplications'>;
      holds?: Pick<HoldStore, 'listLive'>;
      /** Observed for the stage below, as a ladder view observes it (the soak starts at the first healthy sighting). */
      healthySince?: Pick<HealthySinceStore, 'observe'>;
      clock?: Clock;
    },
  ) {
    this.clock = options.clock ?? systemClock;
  }

  /** For a promotion into `toStage` (one of the configured stages). */
  async forPromotion(product: ProductRef, toStage: string): Promise<Ladder> {
    const { stages } = this.options.config;
    const below = stages[stages.indexOf(toStage) - 1];
    const listing = below ? await this.applicationOf(product, below) : NO_APPLICATIONS;
    const ladder = await this.options.ladder.getLadder(product, { listing });
    const stageNamed = (name: string) => ladder.stages.find(stage => stage.name === name);
    await Promise.all([this.markSoak(ladder, stageNamed(below)), this.markHolds(product, stageNamed(toStage))]);
    return ladder;
  }

  /** For a rollback: the records alone (the digests, what the Environment declares, the Release's blob). */
  async forRollback(product: ProductRef): Promise<Ladder> {
    return this.options.ladder.getLadder(product, { listing: NO_APPLICATIONS });
  }

  /** The Product's Applications narrowed to the stage's, with the sources that could not be asked. */
  private async applicationOf(product: ProductRef, stage: string): Promise<ApplicationListing> {
    const listing = await this.options.ladder.listApplications(product);
    const name = applicationName(product, stage);
    return {
      errors: listing.errors,
      applications: listing.applications.filter(observed => observed.application.metadata?.name === name),
    };
  }

  private async markSoak(ladder: Ladder, stage: LadderStage | undefined) {
    const { healthySince } = this.options;
    if (!stage || !healthySince) return;
    const now = this.clock.now();
    annotateSoak(stage, await healthySince.observe({ ...ladder, stages: [stage] }, now), now);
  }

  private async markHolds(product: ProductRef, stage: LadderStage | undefined) {
    const { holds } = this.options;
    if (!stage || !holds) return;
    const live = await holds.listLive(product);
    for (const [service, cell] of Object.entries(stage.services)) {
      cell.hold = live.find(hold => hold.stage === stage.name && hold.service === service);
    }
  }
}
