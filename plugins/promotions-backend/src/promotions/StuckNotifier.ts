import { LRUCache } from 'lru-cache';
import type { Diagnosis, Ladder, ProductRef } from '@refplat/plugin-promotions-common';
import { systemClock } from '@refplat/plugin-promotions-node';
import type { Clock, NotificationClaimStore, ProductOwners } from '@refplat/plugin-promotions-node';

/** A stall is notified once a week at most: still stuck a week later, its owners hear again. */
export const STUCK_CLAIM_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Stalls this replica has seen claimed lately, so that it asks the claim store once per stall. */
const RECENT_CLAIMS = 10_000;

export interface StuckNotifierOptions {
  /** Decides between replicas: the one whose claim takes effect notifies. */
  claims: NotificationClaimStore;
  owners: ProductOwners;
  /** Sends the notification to the owners (PromotionsBroadcaster.stuck). */
  send(product: ProductRef, owners: string[], stage: string, service: string, diagnosis: Diagnosis): Promise<void>;
  clock?: Clock;
}

/**
 * Tells a Product's owners of each stuck service of its ladder, once per
 * stall: the same digest stuck in the same stage notifies once a week
 * whatever reason the diagnosis gives (an aborted canary reads as Degraded
 * in a build that could not read its Rollout), however many replicas and
 * builds see it.
 */
export class StuckNotifier {
  private readonly clock: Clock;
  /**
   * Claimed in memory before the claim store is asked: two builds of this
   * replica seeing the same stall at once ask the store once.
   */
  private readonly recentClaims: LRUCache<string, true>;

  constructor(private readonly options: StuckNotifierOptions) {
    this.clock = options.clock ?? systemClock;
    this.recentClaims = new LRUCache({
      max: RECENT_CLAIMS,
      ttl: STUCK_CLAIM_TTL_MS,
      // Expiry by the notifier's clock, read at every lookup (not remembered for a millisecond).
      perf: { now: () => this.clock.now().getTime() },
      ttlResolution: 0,
    });
  }

  async notifyStuck(ladder: Ladder): Promise<void> {
    for (const stage of ladder.stages) {
      for (const [service, cell] of Object.entries(stage.services)) {
        if (cell.diagnosis?.state !== 'stuck') continue;
        const key = `stuck-notified:${ladder.team}/${ladder.product}:${stage.name}:${service}:${cell.digest}`;
        if (await this.claim(key)) {
          await this.options.send(ladder, await this.options.owners.of(ladder), stage.name, service, cell.diagnosis);
        }
      }
    }
  }

  private async claim(key: string): Promise<boolean> {
    if (this.recentClaims.has(key)) return false;
    this.recentClaims.set(key, true);
    return this.options.claims.claim(key, this.clock.now());
  }
}
