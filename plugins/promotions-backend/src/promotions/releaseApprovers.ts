import { BackstageCredentials, PermissionsService } from '@backstage/backend-plugin-api';
import { RELATION_MEMBER_OF, stringifyEntityRef } from '@backstage/catalog-model';
import { NotAllowedError } from '@backstage/errors';
import { CatalogService } from '@backstage/plugin-catalog-node';
import { ProductRef, promotionApprovePermission } from '@refplat/plugin-promotions-common';
import { authorizeProduct } from '../service/authorize';

/**
 * Whether a user is a release-approver: membership of one of
 * `promotions.approval.approvers` as the catalog records it, on top of the
 * permission policy (approving, rejecting and the inbox all ask this).
 */
export async function releaseApproverCheck(
  catalog: CatalogService,
  approvers: string[],
  userRef: string,
  credentials: BackstageCredentials,
): Promise<{ isApprover: boolean; name: string }> {
  const user = await catalog.getEntityByRef(userRef, { credentials });
  const groups = (user?.relations ?? [])
    .filter(relation => relation.type === RELATION_MEMBER_OF)
    .map(relation => relation.targetRef);
  return {
    isApprover: approvers.some(group => groups.includes(group)),
    name: user ? stringifyEntityRef(user) : userRef,
  };
}

/** Throws 403 unless the user is a release-approver; `what` says what needs it. */
export async function requireReleaseApprover(
  catalog: CatalogService,
  approvers: string[],
  userRef: string,
  credentials: BackstageCredentials,
  what = 'approvals',
): Promise<void> {
  const { isApprover, name } = await releaseApproverCheck(catalog, approvers, userRef, credentials);
  if (!isApprover) {
    throw new NotAllowedError(
      `${name} is not a release-approver: ${what} need membership of ${approvers.join(', ')}`,
    );
  }
}

/**
 * Who may answer a promotion awaiting approval (approve or reject): the
 * permission policy allows `promotions.promotion.approve` on the Product, and
 * the user is a release-approver whatever the policy says.
 */
export async function requireApprovalRights(
  deps: { permissions: PermissionsService; catalog: CatalogService; approvers: string[] },
  credentials: BackstageCredentials<{ type: 'user'; userEntityRef: string }>,
  product: ProductRef,
  what = 'approvals',
): Promise<void> {
  await authorizeProduct(deps.permissions, credentials, promotionApprovePermission, product);
  await requireReleaseApprover(deps.catalog, deps.approvers, credentials.principal.userEntityRef, credentials, what);
}
