import { DigestArrival, Ladder, ProductRef, Promotion, annotateSoak, arrivalOf } from '@refplat/plugin-promotions-common';
import { Clock, systemClock } from '@refplat/plugin-promotions-node';
import { AutoDecisionStore } from '../database/AutoDecisionStore';
import { HealthySinceStore } from '../database/HealthySinceStore';
import { HoldStore } from '../database/HoldStore';

/**
 * What the ladder shows beyond GitHub and ArgoCD: holds, since when each
 * digest has been healthy and the soak time left, the auto-promoter's
 * last decision for each cell ("why didn't it climb?"), and the merged
 * promotion that brought each digest ("auto-promoted 1 min ago, PR #2"),
 * and when the platform branch's history says it arrived.
 */
export class LadderAnnotations {
  constructor(
    private readonly stores: {
      holds: HoldStore;
      healthySince: HealthySinceStore;
      autoDecisions: AutoDecisionStore;
      /** The Product's newest promotions, any status: where merged ones are found. */
      recentPromotions: (product: ProductRef) => Promise<Promotion[]>;
      /** Each Service's last arrival per stage by the branch history, when delivery metrics read it. */
      branchArrivals?: (product: ProductRef) => Promise<DigestArrival[]>;
    },
    /** Healthy-since times are observed, and soak times counted, at its time. */
    private readonly clock: Clock = systemClock,
  ) {}

  async annotate(ladder: Ladder): Promise<void> {
    const product = { team: ladder.team, product: ladder.product };
    const now = this.clock.now();
    const [holds, healthySince, decisions, promotions, arrivals] = await Promise.all([
      this.stores.holds.listLive(product),
      this.stores.healthySince.observe(ladder, now),
      this.stores.autoDecisions.latest(product),
      this.stores.recentPromotions(product),
      this.stores.branchArrivals?.(product) ?? [],
    ]);
    for (const stage of ladder.stages) {
      annotateSoak(stage, healthySince, now);
      for (const [service, cell] of Object.entries(stage.services)) {
        cell.hold = holds.find(h => h.stage === stage.name && h.service === service);
        cell.arrivedWith = arrivalOf(promotions, stage.name, service, cell.digest);
        // The history may lag the branch head the ladder shows: only its arrival of this very digest counts.
        const arrival = arrivals.find(a => a.stage === stage.name && a.service === service);
        if (arrival && arrival.digest === cell.digest) cell.arrivedAt = arrival.at;
        const decision = decisions.find(d => d.toStage === stage.name && d.service === service);
        if (decision) {
          cell.autoPromotion = {
            decision: decision.decision,
            reason: decision.reason,
            decidedAt: decision.decidedAt,
          };
        }
      }
    }
  }
}
