import {
  ProductChange,
  ProductChangeRefusal,
  Promotion,
  actorNameWithoutCatalog,
  decideProductChange,
  ownPartBarsApproval,
  withdrawalProblem,
} from '@refplat/plugin-promotions-common';

/**
 * What the UI offers a person on a Product's ladder, decided by the rule the
 * backend enforces (decideProductChange, in -common; docs "Who may change a
 * Product"), so nobody gets an enabled button whose click answers 403 or 409.
 * The backend checks again.
 */

export type { ProductChange };

/** Who is looking, and the Product's rules, as far as the UI can know them. */
export interface ProductViewer {
  /** The signed-in user's ref, e.g. `user:default/bob`. */
  userEntityRef: string;
  /** Their ownership claims: their User ref and their Groups. */
  claims: string[];
  /** The owners of the Product's System in the catalog; undefined when the catalog could not say. */
  owners?: string[];
  /** `promotions.approval.approvers`, as the ladder reports them. */
  approvers: string[];
  /** `promotions.permissions.requireOwnership` (default true). */
  requireOwnership: boolean;
  /** `promotions.approval.requireDistinctApprover` (default true). */
  requireDistinctApprover: boolean;
}

export type Access = { allowed: true } | { allowed: false; reason: string };

/** An approval refused for the viewer's own part in the promotion: they requested it, or approved its head already. */
export type ApproveAccess = Access | { allowed: false; reason: string; ownPart: true };

const ALLOWED: Access = { allowed: true };

/** What each change is, as in "may not request promotions". */
export const DOING: Record<ProductChange, string> = {
  'request-promotion': 'request promotions',
  'request-rollback': 'request rollbacks',
  'place-hold': 'freeze services',
  'lift-hold': 'resume services',
};


function names(refs: string[]): string {
  return refs.map(actorNameWithoutCatalog).join(', ');
}

function isApprover(viewer: ProductViewer): boolean {
  return viewer.approvers.some(ref => viewer.claims.includes(ref));
}

/** A refused change in the ladder's words: names as people say them, the UI's verbs. */
function refusalReason(refusal: ProductChangeRefusal, change: ProductChange, viewer: ProductViewer): string {
  const approvers = names(viewer.approvers) || 'release-approvers';
  switch (refusal.rule) {
    case 'approval-stage-hold':
      return `Only release-approvers (${approvers}) may resume a service here`;
    case 'not-an-owner':
      return `Only the Product's owners (${names(refusal.owners)}) and release-approvers (${approvers}) may ${DOING[change]}`;
    case 'no-owner':
      return `The Product has no owner in the catalog: only release-approvers (${approvers}) may ${DOING[change]}`;
    case 'owners-unknown':
      return `The catalog could not say who owns the Product: only release-approvers (${approvers}) may ${DOING[change]} until it can`;
    default:
      throw new Error(`Unknown refusal ${JSON.stringify(refusal)}`);
  }
}

/** Whether the viewer may make the change, by the rule the backend enforces, and why not. */
export function changeAccess(
  viewer: ProductViewer,
  change: ProductChange,
  atApprovalStage: boolean,
): Access {
  const decision = decideProductChange({
    change,
    claims: viewer.claims,
    owners: viewer.owners,
    approvers: viewer.approvers,
    atApprovalStage,
    requireOwnership: viewer.requireOwnership,
  });
  return decision.allowed
    ? ALLOWED
    : { allowed: false, reason: refusalReason(decision.refusal, change, viewer) };
}

/**
 * Whether the viewer may approve a promotion: not one they requested (where
 * approvers must differ) or whose head they approved already; a
 * release-approver, or a member of `commanders` while an open incident asks
 * for an incident commander's approval too (the backend decides which
 * approval is still missing).
 */
export function approveAccess(
  viewer: ProductViewer,
  promotion: Pick<Promotion, 'requestedBy' | 'approval'>,
  commanders: string[] = [],
): ApproveAccess {
  // Who may not approve at all hears who may, not that "another" approver must (issue 45).
  if (!isApprover(viewer) && !commanders.some(ref => viewer.claims.includes(ref))) {
    return {
      allowed: false,
      reason: `Awaiting approval by ${
        viewer.approvers.length ? `members of ${names(viewer.approvers)}` : 'a release-approver'
      }${commanders.length ? ` and an incident commander (${names(commanders)})` : ''}`,
    };
  }
  const ownPart = ownPartBarsApproval(promotion, viewer.userEntityRef, viewer.requireDistinctApprover);
  if (ownPart) return { allowed: false, reason: ownPart, ownPart: true };
  return ALLOWED;
}

/** Whether the viewer may withdraw the promotion: its requester, or one of the Product's approvers, while it is live. */
export function withdrawAccess(
  viewer: ProductViewer,
  promotion: Pick<Promotion, 'id' | 'status' | 'statusReason' | 'requestedBy' | 'pullRequest' | 'queuedAt'>,
): Access {
  const problem = withdrawalProblem(promotion, { userEntityRef: viewer.userEntityRef, isApprover: isApprover(viewer) });
  return problem ? { allowed: false, reason: problem } : ALLOWED;
}

/** Whether the viewer may override the guards' blocks (a freeze window): release-approvers only. */
export function overrideAccess(viewer: ProductViewer): Access {
  if (isApprover(viewer)) return ALLOWED;
  return {
    allowed: false,
    reason: `Only release-approvers (${names(viewer.approvers) || 'release-approvers'}) may override it`,
  };
}
