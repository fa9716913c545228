import { Entity } from '@backstage/catalog-model';
import {
  PRODUCT_ANNOTATION,
  ProductRef,
  SERVICE_ANNOTATION,
  parseProductRef,
} from '@refplat/plugin-promotions-common';

/** Where an entity sits on a ladder: its Product, and its Service if it is one. */
export interface EntityPromotionsTarget {
  product: ProductRef;
  service?: string;
}

/**
 * A System names its Product directly. A Component names its Service, and its
 * Product either directly or through the System it belongs to (resolved by
 * the caller, since that needs the catalog).
 */
export function promotionsTargetOf(
  entity: Entity,
): EntityPromotionsTarget | undefined {
  const annotations = entity.metadata.annotations ?? {};
  const product = parseProductRef(annotations[PRODUCT_ANNOTATION]);
  if (!product) return undefined;
  const service = annotations[SERVICE_ANNOTATION]?.trim();
  return { product, service: service || undefined };
}

/** True when the entity carries the annotations the promotions cards need. */
export function isPromotionsAvailable(entity: Entity): boolean {
  return promotionsTargetOf(entity) !== undefined;
}
