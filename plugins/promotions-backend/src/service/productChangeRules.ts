/** The changes a person makes to a Product through the plugin. */
export type ProductChange = 'request-promotion' | 'request-rollback' | 'place-hold' | 'lift-hold';

const DOING: Record<ProductChange, string> = {
  'request-promotion': 'request promotions',
  'request-rollback': 'request rollbacks',
  'place-hold': 'place holds',
  'lift-hold': 'lift holds',
};

export interface ProductChangeQuestion {
  change: ProductChange;
  /** The caller's ownership claims: their User ref and their Groups. */
  claims: string[];
  /** The owners of the Product's System in the catalog (none when it has no System). */
  owners: string[];
  /** `promotions.approval.approvers`. */
  approvers: string[];
  /** Whether the stage the change touches waits for approval (prod). */
  atApprovalStage: boolean;
  /** `promotions.permissions.requireOwnership`: false leaves ownership to the permission policy. */
  requireOwnership: boolean;
}

export type ProductChangeDecision = { allowed: true } | { allowed: false; reason: string };

const ALLOWED: ProductChangeDecision = { allowed: true };

/**
 * Who may change a Product: release-approvers always; its owners otherwise,
 * except that lifting a hold at an approval stage needs a release-approver
 * (a rollback's hold there protects prod). With ownership not required,
 * everyone the permission policy lets through may, but the approval-stage
 * rule still holds, as approval itself does.
 */
export function decideProductChange(question: ProductChangeQuestion): ProductChangeDecision {
  const { change, claims, owners, approvers } = question;
  const holds = (refs: string[]) => refs.some(ref => claims.includes(ref));
  if (holds(approvers)) return ALLOWED;
  if (change === 'lift-hold' && question.atApprovalStage) {
    return {
      allowed: false,
      reason: `lifting a hold at an approval stage needs a release-approver (${approvers.join(', ')})`,
    };
  }
  if (!question.requireOwnership || holds(owners)) return ALLOWED;
  return {
    allowed: false,
    reason:
      owners.length > 0
        ? `only the Product's owners (${owners.join(', ')}) and release-approvers (${approvers.join(', ')}) may ${DOING[change]}`
        : `the Product has no owner in the catalog (a System annotated with it, with spec.owner); only release-approvers (${approvers.join(', ')}) may ${DOING[change]}`,
  };
}
