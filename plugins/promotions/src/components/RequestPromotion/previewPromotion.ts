import { Ladder, planPromotion } from '@refplat/plugin-promotions-common';
import type { ServiceDigestChange } from '../common/DigestChangesTable';

export interface PromotionPreview {
  toStage: string;
  fromStage?: string;
  requiresApproval: boolean;
  /** Where it requires approval: how many distinct release-approvers it needs. */
  approvalQuorum?: number;
  /** What the promotion writes into the target stage, service by service. */
  changes: ServiceDigestChange[];
  left: Array<{ service: string; reason: string }>;
  /** Set when, by the ladder on screen, nothing can be promoted. */
  refusal?: string;
}

/**
 * What a promotion into `toStage` (of every differing service, or of one)
 * would change, by the same pure rule the backend applies. Only a preview:
 * the ladder on screen may be a few seconds old, the backend decides.
 */
export function previewPromotion(
  ladder: Ladder,
  toStage: string,
  service?: string,
): PromotionPreview {
  const index = ladder.stages.findIndex(stage => stage.name === toStage);
  const result = planPromotion(ladder, {
    toStage,
    services: service ? [service] : undefined,
  });
  const changes = result.allowed
    ? result.plan
        .filter(entry => entry.included && entry.from)
        .map(entry => ({ service: entry.service, current: entry.to, next: entry.from! }))
    : [];
  const left = result.plan
    .filter(entry => !entry.included)
    .map(entry => ({ service: entry.service, reason: entry.reason }));

  // A rung promotion only plans the services that differ; say why the rest
  // stay, so the dialog accounts for every service of the Product.
  if (!service) {
    const planned = new Set(result.plan.map(entry => entry.service));
    for (const other of ladder.services.filter(name => !planned.has(name))) {
      const [alone] = planPromotion(ladder, { toStage, services: [other] }).plan;
      if (alone) left.push({ service: other, reason: alone.reason });
    }
  }

  return {
    toStage,
    fromStage: index > 0 ? ladder.stages[index - 1].name : undefined,
    requiresApproval: ladder.stages[index]?.requiresApproval ?? false,
    approvalQuorum: ladder.stages[index]?.approvalQuorum,
    changes,
    left,
    refusal: result.allowed ? undefined : result.reason,
  };
}
