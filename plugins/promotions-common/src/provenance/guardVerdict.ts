import { GuardVerdict, GuardedPromotion } from '../guards/types';
import { Provenance, ProvenanceMode } from './types';

/** Where provenance is required, and how strictly. @public */
export interface ProvenanceRequirement {
  mode: ProvenanceMode;
  /** The stages a digest must be verified to enter. */
  stages: string[];
  /** The Products checked, as `team/product`; absent: every Product. */
  products?: string[];
  /** Whether a release-approver's override lifts an `enforce` refusal (break-glass); not unless set. */
  overridable?: boolean;
}

/** Whether `promotions.provenance` checks this Product (a platform turns it on Product by Product). */
export function checksProvenanceOf(requirement: Pick<ProvenanceRequirement, 'mode' | 'products'>, product: { team: string; product: string }): boolean {
  if (requirement.mode === 'off') return false;
  return !requirement.products || requirement.products.includes(`${product.team}/${product.product}`);
}

/**
 * The provenance guard: in `enforce`, a promotion into a stage that requires
 * provenance goes only when every digest it carries is `verified`; `unknown`
 * (the registry could not be asked) is refused too, never taken for verified.
 * In `warn` it goes, with the reasons shown.
 *
 * @public
 */
export function provenanceGuardVerdict(
  requirement: ProvenanceRequirement,
  promotion: Pick<GuardedPromotion, 'team' | 'product' | 'toStage' | 'services'>,
  provenanceOf: (service: string, digest: string) => Provenance,
): GuardVerdict {
  if (requirement.mode === 'off') return { verdict: 'allow', reason: 'Provenance is not checked' };
  if (!checksProvenanceOf(requirement, promotion)) {
    return { verdict: 'allow', reason: `Provenance is not checked for ${promotion.team}/${promotion.product}` };
  }
  if (!requirement.stages.includes(promotion.toStage)) {
    return { verdict: 'allow', reason: `${promotion.toStage} does not require provenance` };
  }
  const problems = Object.entries(promotion.services).flatMap(([service, digest]) => {
    const provenance = provenanceOf(service, digest);
    if (provenance.state === 'verified') return [];
    return provenance.reasons.length ? provenance.reasons : [`${service} ${digest}: provenance ${provenance.state}`];
  });
  if (problems.length === 0) return { verdict: 'allow', reason: 'Every digest is signed and has SLSA provenance' };
  if (requirement.mode === 'warn') {
    return { verdict: 'allow', reason: `Let through (provenance mode warn): ${problems.join('; ')}` };
  }
  // Admission verifies too: an override would only move the refusal to the cluster.
  return { verdict: 'block', reason: problems.join('; '), ...(requirement.overridable ? {} : { overridable: false }) };
}
