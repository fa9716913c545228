import { PermissionsRegistryService } from '@backstage/backend-plugin-api';
import {
  ProductRef,
  PromotionsProductResource,
  formatProductRef,
  parseProductRef,
  promotionsPermissions,
} from '@refplat/plugin-promotions-common';
import { ProductOwners } from '../service/ProductOwners';
import { promotionsProductPermissionRules, promotionsProductResourceRef } from './productRules';

/** Where a Product's resource comes from once the plugin is configured. */
export interface ProductResourceSources {
  owners: Pick<ProductOwners, 'of'>;
  /** The Product's approvers: `promotions.approval.approvers` refined by its System. */
  approvers: (product: ProductRef) => Promise<string[]>;
}

/**
 * A Product as the rules see it; undefined for a ref that is not
 * `team/product` or while the plugin is not configured, which the permission
 * framework turns into DENY for a conditional decision.
 */
export async function loadProductResource(
  ref: string,
  sources: ProductResourceSources | undefined,
): Promise<PromotionsProductResource | undefined> {
  const product = parseProductRef(ref);
  if (!product || !sources) return undefined;
  return {
    product: formatProductRef(product),
    owners: await sources.owners.of(product),
    approvers: await sources.approvers(product),
  };
}

/**
 * Registers the `promotions-product` resource type, its permissions and
 * rules, so the permission backend can resolve a policy's conditional
 * decisions for the plugin's `authorize` calls. Registration must happen
 * early in init (before the not-configured early return), while the owners
 * exist only once configured: the returned function connects them.
 */
export function registerProductResourceType(
  registry: PermissionsRegistryService,
): (sources: ProductResourceSources) => void {
  let sources: ProductResourceSources | undefined;
  registry.addResourceType({
    resourceRef: promotionsProductResourceRef,
    permissions: promotionsPermissions,
    rules: Object.values(promotionsProductPermissionRules),
    getResources: async refs => {
      // one at a time: the owners' catalog read is shared through its cache
      const resources: Array<PromotionsProductResource | undefined> = [];
      for (const ref of refs) resources.push(await loadProductResource(ref, sources));
      return resources;
    },
  });
  return connected => {
    sources = connected;
  };
}
