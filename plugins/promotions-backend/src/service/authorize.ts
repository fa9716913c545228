import {
  BackstageCredentials,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import { NotAllowedError } from '@backstage/errors';
import {
  AuthorizeResult,
  ResourcePermission,
} from '@backstage/plugin-permission-common';
import {
  PROMOTIONS_PRODUCT_RESOURCE_TYPE,
  ProductRef,
  formatProductRef,
} from '@refplat/plugin-promotions-common';

/** Asks the permission framework about one Product; throws 403 unless allowed. */
export async function authorizeProduct(
  permissions: PermissionsService,
  credentials: BackstageCredentials,
  permission: ResourcePermission<typeof PROMOTIONS_PRODUCT_RESOURCE_TYPE>,
  product: ProductRef,
): Promise<void> {
  const [decision] = await permissions.authorize(
    [{ permission, resourceRef: formatProductRef(product) }],
    { credentials },
  );
  if (decision.result !== AuthorizeResult.ALLOW) {
    throw new NotAllowedError(
      `Not allowed: ${permission.name} on ${formatProductRef(product)}`,
    );
  }
}
