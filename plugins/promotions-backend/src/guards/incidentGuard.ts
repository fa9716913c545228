import { IncidentPolicy, incidentVerdict } from '@refplat/plugin-promotions-common';
import type { PromotionGuard } from '@refplat/plugin-promotions-node';
import { PromotionStore } from '../database/PromotionStore';
import { IncidentApprovals } from '../incidents/IncidentApprovals';
import { IncidentStore } from '../incidents/IncidentStore';
import { ActorNames } from '../service/ActorNames';

export const INCIDENT_GUARD = 'incident';

/**
 * The built-in incident guard: `promotions.incidents`, evaluated by the pure
 * rules in -common against the Product's open incidents; in approval mode a
 * stored promotion whose head an incident commander approved is let through.
 */
export function incidentGuard(options: {
  policy: IncidentPolicy;
  incidents: IncidentStore;
  store: PromotionStore;
  approvals: IncidentApprovals;
  /** The verdict's reason names the commanders, not their refs. */
  names: ActorNames;
}): PromotionGuard {
  const { policy, incidents, store, approvals, names } = options;
  return {
    name: INCIDENT_GUARD,
    evaluate: async promotion => {
      const open = await incidents.listOpen(promotion);
      const stored = policy.mode === 'approval' && open.length && promotion.id ? await store.get(promotion.id) : undefined;
      const commander = stored ? await approvals.commanderOf(stored) : undefined;
      if (!open.length) return incidentVerdict(policy, open, promotion.toStage);
      return incidentVerdict(
        policy,
        open,
        promotion.toStage,
        commander,
        await names.namesOf([commander, ...policy.commanders]),
      );
    },
  };
}
