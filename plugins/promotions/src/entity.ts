import { CompoundEntityRef, Entity, parseEntityRef } from '@backstage/catalog-model';
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
 * How to find an entity's place on a ladder from the entity alone: a System
 * (or a Component) names its Product directly; a Component that names only
 * its Service takes the Product from the System in `spec.system`, which
 * needs the catalog.
 */
export type PromotionsTargetLookup =
  | { kind: 'direct'; target: EntityPromotionsTarget }
  | { kind: 'through-system'; service: string; system: CompoundEntityRef };

/** The System `spec.system` names (`shop`, `default/shop` or `system:default/shop`). */
function systemOf(entity: Entity): CompoundEntityRef | undefined {
  const system = (entity.spec as { system?: unknown } | undefined)?.system;
  if (typeof system !== 'string' || !system.trim()) return undefined;
  try {
    const ref = parseEntityRef(system.trim(), {
      defaultKind: 'System',
      defaultNamespace: entity.metadata.namespace ?? 'default',
    });
    return ref.kind.toLocaleLowerCase('en-US') === 'system' ? ref : undefined;
  } catch {
    return undefined;
  }
}

export function promotionsTargetLookupOf(entity: Entity): PromotionsTargetLookup | undefined {
  const annotations = entity.metadata.annotations ?? {};
  const service = annotations[SERVICE_ANNOTATION]?.trim() || undefined;
  if (annotations[PRODUCT_ANNOTATION] !== undefined) {
    // A Product named but malformed is not silently replaced by the System's.
    const product = parseProductRef(annotations[PRODUCT_ANNOTATION]);
    return product ? { kind: 'direct', target: { product, service } } : undefined;
  }
  const system = systemOf(entity);
  return service && system ? { kind: 'through-system', service, system } : undefined;
}

/**
 * True when the promotions cards can place the entity on a ladder: it names
 * its Product, or its Service and the System whose Product it belongs to.
 * Synchronous, as `EntitySwitch` wants; the card looks the System up.
 *
 * @public
 */
export function isPromotionsAvailable(entity: Entity): boolean {
  return promotionsTargetLookupOf(entity) !== undefined;
}
