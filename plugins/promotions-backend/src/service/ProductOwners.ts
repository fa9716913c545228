import { AuthService, CacheService } from '@backstage/backend-plugin-api';
import { parseEntityRef, stringifyEntityRef } from '@backstage/catalog-model';
import { CatalogService } from '@backstage/plugin-catalog-node';
import {
  APPROVAL_QUORUM_ANNOTATION,
  APPROVERS_ANNOTATION,
  PRODUCT_ANNOTATION,
  ProductRef,
  formatProductRef,
} from '@refplat/plugin-promotions-common';
import type { ProductOwners } from '@refplat/plugin-promotions-node';

export type { ProductOwners } from '@refplat/plugin-promotions-node';

/** Ownership changes rarely; a minute's delay is the price of one catalog query per minute. */
const TTL_MS = 60_000;
const CACHE_KEY = 'product-systems';

/** The System annotations that refine the approval policy of its Product. */
const APPROVAL_ANNOTATIONS = [APPROVERS_ANNOTATION, APPROVAL_QUORUM_ANNOTATION];

/** What the plugin reads of a Product's System. */
type ProductSystem = {
  owners: string[];
  /** Only the approval annotations: the cache keeps no more than it needs. */
  approvalAnnotations: { [annotation: string]: string };
};

/** Product (`team/name`) → its System, as kept in the cache. */
type SystemsByProduct = { [product: string]: ProductSystem };

/**
 * The owners of the System that represents a Product, and the annotations
 * that refine its approval policy, from the catalog. The whole Product →
 * System map is read in one query and kept in Backstage's cache, so replicas
 * sharing a cache store share it too.
 */
export class CatalogProductOwners implements ProductOwners {
  constructor(
    private readonly catalog: CatalogService,
    private readonly auth: AuthService,
    private readonly cache: CacheService,
  ) {}

  async of(product: ProductRef): Promise<string[]> {
    return (await this.systemOf(product))?.owners ?? [];
  }

  /** The System's `refplat.org/approvers` and `refplat.org/approval-quorum`; undefined without a System. */
  async approvalAnnotations(product: ProductRef): Promise<Record<string, string> | undefined> {
    return (await this.systemOf(product))?.approvalAnnotations;
  }

  private async systemOf(product: ProductRef): Promise<ProductSystem | undefined> {
    let systems = await this.cache.get<SystemsByProduct>(CACHE_KEY);
    if (!systems) {
      systems = await this.read();
      await this.cache.set(CACHE_KEY, systems, { ttl: TTL_MS });
    }
    return systems[formatProductRef(product)];
  }

  private async read(): Promise<SystemsByProduct> {
    const { items } = await this.catalog.getEntities(
      { filter: { kind: 'System' }, fields: ['metadata.annotations', 'spec.owner'] },
      { credentials: await this.auth.getOwnServiceCredentials() },
    );
    const systems: SystemsByProduct = {};
    for (const entity of items) {
      const annotations = entity.metadata.annotations ?? {};
      const name = annotations[PRODUCT_ANNOTATION];
      if (!name) continue;
      const owner = (entity.spec as { owner?: string } | undefined)?.owner;
      systems[name.trim()] = {
        owners: owner
          ? [stringifyEntityRef(parseEntityRef(owner, { defaultKind: 'group', defaultNamespace: 'default' }))]
          : [],
        approvalAnnotations: Object.fromEntries(
          APPROVAL_ANNOTATIONS.filter(key => annotations[key] !== undefined).map(key => [key, annotations[key]]),
        ),
      };
    }
    return systems;
  }
}
