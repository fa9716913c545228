import { Knex } from 'knex';
import { BroadcastingPromotionStore } from '../database/BroadcastingPromotionStore';
import { DatabaseAutoDecisionStore } from '../database/AutoDecisionStore';
import { DatabasePromotionStore } from '../database/DatabasePromotionStore';
import { DatabaseHealthySinceStore } from '../database/HealthySinceStore';
import { DatabaseHoldStore } from '../database/HoldStore';
import { DatabaseNotificationClaimStore } from '../database/NotificationClaimStore';
import { DatabaseIncidentStore } from '../incidents/IncidentStore';
import { DigestTimelineStore } from '../metrics/DigestTimelineStore';
import { PromotionsBroadcaster } from '../promotions/PromotionsBroadcaster';
import { STUCK_CLAIM_TTL_MS } from '../promotions/StuckNotifier';

/** What the plugin keeps in its database; every change of a promotion is broadcast. */
export function storeParts(db: Knex, broadcaster: PromotionsBroadcaster) {
  return {
    promotions: new BroadcastingPromotionStore(new DatabasePromotionStore(db), broadcaster),
    holds: new DatabaseHoldStore(db),
    healthySince: new DatabaseHealthySinceStore(db),
    autoDecisions: new DatabaseAutoDecisionStore(db),
    incidents: new DatabaseIncidentStore(db),
    timelines: new DigestTimelineStore(db),
    stuckClaims: new DatabaseNotificationClaimStore(db, STUCK_CLAIM_TTL_MS),
  };
}

export type StoreParts = ReturnType<typeof storeParts>;
