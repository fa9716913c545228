import {
  ProductRef,
  Promotion,
  promotionApprovePermission,
  promotionHoldPermission,
  promotionRequestPermission,
} from '@refplat/plugin-promotions-common';
import { useProductPermission } from '../hooks/useProductPermission';
import { useProductAccessState } from './ProductAccessContext';
import { DOING, ProductChange, approveAccess, changeAccess, overrideAccess, withdrawAccess } from './productChangeAccess';

/** Whether to offer an action: `reason` says why not, or that it is still being checked. */
export interface ActionAccess {
  allowed: boolean;
  loading: boolean;
  reason?: string;
  /** Set when an approval is refused for the viewer's own part: they requested the promotion, or approved its head. */
  ownPart?: boolean;
}

const PERMISSION = {
  'request-promotion': promotionRequestPermission,
  'request-rollback': promotionRequestPermission,
  'place-hold': promotionHoldPermission,
  'lift-hold': promotionHoldPermission,
} as const;

const CHECKING: ActionAccess = { allowed: false, loading: true, reason: 'Checking what you may do' };

/**
 * Whether the signed-in user may make `change` on the Product: the permission
 * policy, and the Product's own rule (owners and release-approvers).
 */
export function useChangeAccess(
  product: ProductRef,
  change: ProductChange,
  atApprovalStage = false,
): ActionAccess {
  const permission = useProductPermission(PERMISSION[change], product);
  const { viewer } = useProductAccessState();
  if (permission.loading || !viewer) return CHECKING;
  if (!permission.allowed) {
    return { allowed: false, loading: false, reason: `You may not ${DOING[change]}` };
  }
  const access = changeAccess(viewer, change, atApprovalStage);
  return access.allowed
    ? { allowed: true, loading: false }
    : { allowed: false, loading: false, reason: access.reason };
}

/**
 * Whether the signed-in user may approve the promotion now; `commanders` when
 * an open incident asks for an incident commander as well.
 */
export function useApproveAccess(
  product: ProductRef,
  promotion: Pick<Promotion, 'requestedBy' | 'approval'>,
  commanders: string[] = [],
): ActionAccess {
  const permission = useProductPermission(promotionApprovePermission, product);
  const { viewer } = useProductAccessState();
  if (permission.loading || !viewer) return CHECKING;
  const access = approveAccess(viewer, promotion, commanders);
  if (!access.allowed) {
    return { allowed: false, loading: false, reason: access.reason, ownPart: 'ownPart' in access };
  }
  if (!permission.allowed) {
    return { allowed: false, loading: false, reason: 'The permission policy does not let you approve' };
  }
  return { allowed: true, loading: false };
}

/** Whether the signed-in user may override the guards' blocks when requesting a promotion. */
export function useOverrideAccess(): ActionAccess {
  const { viewer } = useProductAccessState();
  if (!viewer) return CHECKING;
  const access = overrideAccess(viewer);
  return access.allowed
    ? { allowed: true, loading: false }
    : { allowed: false, loading: false, reason: access.reason };
}

/** Whether the signed-in user may withdraw the promotion (its requester, or one of the Product's approvers). */
export function useWithdrawAccess(promotion: Parameters<typeof withdrawAccess>[1]): ActionAccess {
  const { viewer } = useProductAccessState();
  if (!viewer) return CHECKING;
  const access = withdrawAccess(viewer, promotion);
  return access.allowed
    ? { allowed: true, loading: false }
    : { allowed: false, loading: false, reason: access.reason };
}
