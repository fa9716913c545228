import { parseEntityRef } from '@backstage/catalog-model';
import { Promotion, ownPartBarsApproval } from '@refplat/plugin-promotions-common';

/**
 * What the UI offers a person on a Product's ladder, decided the way the
 * backend decides it (README "Who may change a Product"), so nobody gets an
 * enabled button whose click answers 403 or 409. The backend checks again.
 */

/** The changes a person makes to a Product through the ladder. */
export type ProductChange = 'request-promotion' | 'request-rollback' | 'place-hold' | 'lift-hold';

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

/** `group:default/alpha` as people say it: `alpha`. */
export function refName(ref: string): string {
  try {
    return parseEntityRef(ref).name;
  } catch {
    return ref;
  }
}

function names(refs: string[]): string {
  return refs.map(refName).join(', ');
}

function isApprover(viewer: ProductViewer): boolean {
  return viewer.approvers.some(ref => viewer.claims.includes(ref));
}

/**
 * Release-approvers may make every change; the Product's owners too, except
 * lifting a hold at an approval stage. With ownership not required, the
 * permission policy alone decides. Owners the catalog could not give leave
 * the decision to the backend.
 */
export function changeAccess(
  viewer: ProductViewer,
  change: ProductChange,
  atApprovalStage: boolean,
): Access {
  if (isApprover(viewer)) return ALLOWED;
  const approvers = names(viewer.approvers) || 'release-approvers';
  if (change === 'lift-hold' && atApprovalStage) {
    return { allowed: false, reason: `Only release-approvers (${approvers}) may resume a service here` };
  }
  if (!viewer.requireOwnership || viewer.owners === undefined) return ALLOWED;
  if (viewer.owners.some(ref => viewer.claims.includes(ref))) return ALLOWED;
  return {
    allowed: false,
    reason: viewer.owners.length
      ? `Only the Product's owners (${names(viewer.owners)}) and release-approvers (${approvers}) may ${DOING[change]}`
      : `The Product has no owner in the catalog: only release-approvers (${approvers}) may ${DOING[change]}`,
  };
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
  const ownPart = ownPartBarsApproval(promotion, viewer.userEntityRef, viewer.requireDistinctApprover);
  if (ownPart) return { allowed: false, reason: ownPart, ownPart: true };
  if (!isApprover(viewer) && !commanders.some(ref => viewer.claims.includes(ref))) {
    return {
      allowed: false,
      reason: `Awaiting approval by ${
        viewer.approvers.length ? `members of ${names(viewer.approvers)}` : 'a release-approver'
      }${commanders.length ? ` and an incident commander (${names(commanders)})` : ''}`,
    };
  }
  return ALLOWED;
}

/** Whether the viewer may override the guards' blocks (a freeze window): release-approvers only. */
export function overrideAccess(viewer: ProductViewer): Access {
  if (isApprover(viewer)) return ALLOWED;
  return {
    allowed: false,
    reason: `Only release-approvers (${names(viewer.approvers) || 'release-approvers'}) may override it`,
  };
}
