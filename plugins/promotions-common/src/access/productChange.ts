/**
 * The changes a person makes to a Product through the plugin.
 *
 * @public
 */
export type ProductChange = 'request-promotion' | 'request-rollback' | 'place-hold' | 'lift-hold';

/** @public */
export interface ProductChangeQuestion {
  change: ProductChange;
  /** The person's ownership claims: their User ref and their Groups. */
  claims: string[];
  /**
   * The owners of the Product's System in the catalog: none when it has no
   * System (or the System no owner); undefined when the catalog could not say.
   */
  owners?: string[];
  /** `promotions.approval.approvers`. */
  approvers: string[];
  /** Whether the stage the change touches waits for approval (prod). */
  atApprovalStage: boolean;
  /** `promotions.permissions.requireOwnership`: false leaves ownership to the permission policy. */
  requireOwnership: boolean;
}

/**
 * Why a change is refused, for each side to say in its own words: the
 * backend in its 403, the frontend on the disabled button.
 *
 * @public
 */
export type ProductChangeRefusal =
  /** Lifting a hold at an approval stage: a rollback's hold there protects prod. */
  | { rule: 'approval-stage-hold' }
  /** Not among the Product's owners (nor a release-approver). */
  | { rule: 'not-an-owner'; owners: string[] }
  /** The catalog names no owner of the Product: only release-approvers may. */
  | { rule: 'no-owner' }
  /** The catalog could not say who owns the Product: refuse rather than guess. */
  | { rule: 'owners-unknown' };

/** @public */
export type ProductChangeDecision = { allowed: true } | { allowed: false; refusal: ProductChangeRefusal };

/**
 * Who may change a Product, one rule for the backend (which enforces it)
 * and the frontend (which offers only what the backend accepts):
 * release-approvers always; its owners otherwise, except that lifting a hold
 * at an approval stage needs a release-approver. With ownership not
 * required, everyone the permission policy lets through may, but the
 * approval-stage rule still holds, as approval itself does.
 *
 * @public
 */
export function decideProductChange(question: ProductChangeQuestion): ProductChangeDecision {
  const { change, claims, owners, approvers } = question;
  const holds = (refs: string[]) => refs.some(ref => claims.includes(ref));
  const refuse = (refusal: ProductChangeRefusal): ProductChangeDecision => ({ allowed: false, refusal });
  if (holds(approvers)) return { allowed: true };
  if (change === 'lift-hold' && question.atApprovalStage) return refuse({ rule: 'approval-stage-hold' });
  if (!question.requireOwnership) return { allowed: true };
  if (owners === undefined) return refuse({ rule: 'owners-unknown' });
  if (holds(owners)) return { allowed: true };
  return refuse(owners.length ? { rule: 'not-an-owner', owners } : { rule: 'no-owner' });
}
