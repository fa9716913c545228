import { usePermission } from '@backstage/plugin-permission-react';
import {
  ProductRef,
  formatProductRef,
  promotionRequestPermission,
} from '@refplat/plugin-promotions-common';

/** Every promotions permission is a resource permission on a Product. */
type ProductPermission = typeof promotionRequestPermission;

export interface ProductPermissionState {
  allowed: boolean;
  loading: boolean;
}

/**
 * Whether the signed-in user holds a promotions permission on one Product.
 * Only decides what the UI offers: the backend checks every call again.
 */
export function useProductPermission(
  permission: ProductPermission,
  product: ProductRef,
): ProductPermissionState {
  const { allowed, loading } = usePermission({
    permission,
    resourceRef: formatProductRef(product),
  });
  return { allowed, loading };
}
