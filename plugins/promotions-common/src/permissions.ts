import { createPermission } from '@backstage/plugin-permission-common';

// The resource the permissions below are about, and its rules' contract.
export * from './productPermissionRules';

/**
 * Permissions are scoped to a Product (`<team>/<product>`), so a policy can
 * decide per Product (e.g. only the owning team may request promotions).
 *
 * @public
 */
export const PROMOTIONS_PRODUCT_RESOURCE_TYPE = 'promotions-product';

/**
 * Read a Product's promotion ladder, promotions and stage history.
 *
 * @public
 */
export const promotionsLadderReadPermission = createPermission({
  name: 'promotions.ladder.read',
  attributes: { action: 'read' },
  resourceType: PROMOTIONS_PRODUCT_RESOURCE_TYPE,
});

/**
 * Open a Release PR that promotes digests into a stage (also used for rollbacks).
 *
 * @public
 */
export const promotionRequestPermission = createPermission({
  name: 'promotions.promotion.request',
  attributes: { action: 'create' },
  resourceType: PROMOTIONS_PRODUCT_RESOURCE_TYPE,
});

/**
 * Approve a promotion into an approval stage (default: prod).
 *
 * @public
 */
export const promotionApprovePermission = createPermission({
  name: 'promotions.promotion.approve',
  attributes: { action: 'update' },
  resourceType: PROMOTIONS_PRODUCT_RESOURCE_TYPE,
});

/**
 * Place and lift holds (freeze a service in a stage; resume after a rollback).
 *
 * @public
 */
export const promotionHoldPermission = createPermission({
  name: 'promotions.hold.manage',
  attributes: { action: 'update' },
  resourceType: PROMOTIONS_PRODUCT_RESOURCE_TYPE,
});

/** @public */
export const promotionsPermissions = [
  promotionsLadderReadPermission,
  promotionRequestPermission,
  promotionApprovePermission,
  promotionHoldPermission,
];
