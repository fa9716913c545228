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

/**
 * A permission of the caller's on Products, as the operations layer decides it
 * (PromotionsOperations), for the services that work over many Products.
 */
export interface ProductAccessQuestion {
  /** 403 unless the caller has the permission on the Product. */
  require(product: ProductRef): Promise<void>;
  /** The Products among these the caller has it on, in one batched question. */
  among<T extends ProductRef>(products: T[]): Promise<T[]>;
}

/** The caller's read permission on Products (`promotions.ladder.read`). */
export type ProductReadAccess = ProductAccessQuestion;

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

/**
 * The Products the caller is allowed `permission` on, in one batched
 * question: an organisation-wide view counts only what the caller may read.
 */
export async function permittedProducts<T extends ProductRef>(
  permissions: PermissionsService,
  credentials: BackstageCredentials,
  permission: ResourcePermission<typeof PROMOTIONS_PRODUCT_RESOURCE_TYPE>,
  products: T[],
): Promise<T[]> {
  if (products.length === 0) return [];
  const decisions = await permissions.authorize(
    products.map(p => ({ permission, resourceRef: formatProductRef(p) })),
    { credentials },
  );
  return products.filter((_, i) => decisions[i].result === AuthorizeResult.ALLOW);
}
