import { Provenance, ProvenanceRequirement, checksProvenanceOf, provenanceGuardVerdict } from '@refplat/plugin-promotions-common';
import type { PromotionGuard } from '@refplat/plugin-promotions-node';
import { ProvenanceService } from './ProvenanceService';

export const PROVENANCE_GUARD = 'provenance';

/**
 * The built-in provenance guard (`promotions.provenance`): a request, the
 * auto-promoter and the Gate before it merges each ask it, so a digest that
 * is not verified never enters a stage that requires provenance in
 * `enforce`. Written as any adopter's guard is, on the extension point's
 * interface; the rule itself is -common's `provenanceGuardVerdict`.
 */
export function provenanceGuard(requirement: ProvenanceRequirement, provenance: ProvenanceService): PromotionGuard {
  return {
    name: PROVENANCE_GUARD,
    evaluate: async (promotion, context) => {
      const checked = new Map<string, Provenance>();
      if (checksProvenanceOf(requirement, promotion) && requirement.stages.includes(promotion.toStage)) {
        await Promise.all(
          Object.entries(promotion.services).map(async ([service, digest]) => {
            const ref = { team: promotion.team, product: promotion.product, service };
            // A preview (the ladder showing what a request would meet) never waits on the registry;
            // before a merge, it is read again: admission will verify at the moment of use too.
            checked.set(
              service,
              context.phase === 'preview'
                ? await provenance.provenanceForView(ref, digest)
                : await provenance.provenanceOf(ref, digest, { fresh: context.beforeMerge === true }),
            );
          }),
        );
      }
      return provenanceGuardVerdict(requirement, promotion, service => checked.get(service)!);
    },
  };
}
