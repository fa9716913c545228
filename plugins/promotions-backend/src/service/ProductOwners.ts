import { AuthService, CacheService } from '@backstage/backend-plugin-api';
import { parseEntityRef, stringifyEntityRef } from '@backstage/catalog-model';
import { CatalogService } from '@backstage/plugin-catalog-node';
import { PRODUCT_ANNOTATION, ProductRef, formatProductRef } from '@refplat/plugin-promotions-common';

/** Ownership changes rarely; a minute's delay is the price of one catalog query per minute. */
const TTL_MS = 60_000;
const CACHE_KEY = 'product-owners';

/** Product (`team/name`) → owner refs, as kept in the cache. */
type OwnersByProduct = { [product: string]: string[] };

/**
 * The owners of the System that represents a Product, from the catalog. The
 * whole Product → owners map is read in one query and kept in Backstage's
 * cache, so replicas sharing a cache store share it too.
 */
export class ProductOwners {
  constructor(
    private readonly catalog: CatalogService,
    private readonly auth: AuthService,
    private readonly cache: CacheService,
  ) {}

  async of(product: ProductRef): Promise<string[]> {
    let owners = await this.cache.get<OwnersByProduct>(CACHE_KEY);
    if (!owners) {
      owners = await this.read();
      await this.cache.set(CACHE_KEY, owners, { ttl: TTL_MS });
    }
    return owners[formatProductRef(product)] ?? [];
  }

  private async read(): Promise<OwnersByProduct> {
    const { items } = await this.catalog.getEntities(
      { filter: { kind: 'System' }, fields: ['metadata.annotations', 'spec.owner'] },
      { credentials: await this.auth.getOwnServiceCredentials() },
    );
    const owners: OwnersByProduct = {};
    for (const entity of items) {
      const name = entity.metadata.annotations?.[PRODUCT_ANNOTATION];
      const owner = (entity.spec as { owner?: string } | undefined)?.owner;
      if (name && owner) {
        const ref = parseEntityRef(owner, { defaultKind: 'group', defaultNamespace: 'default' });
        owners[name.trim()] = [stringifyEntityRef(ref)];
      }
    }
    return owners;
  }
}
