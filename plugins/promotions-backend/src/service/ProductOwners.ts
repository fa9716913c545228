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
/**
 * A Product the map lacks may be one whose System the catalog just took in
 * (its owners would be refused for up to a minute): the map is read again,
 * at most this often.
 */
const MISS_REREAD_MS = 5_000;
const CACHE_KEY = 'product-systems';

/** The System annotations that refine the approval policy of its Product. */
const APPROVAL_ANNOTATIONS = [APPROVERS_ANNOTATION, APPROVAL_QUORUM_ANNOTATION];

/** What the plugin reads of a Product's System. */
type ProductSystem = {
  owners: string[];
  /** Only the approval annotations: the cache keeps no more than it needs. */
  approvalAnnotations: { [annotation: string]: string };
};

/** Product (`team/name`) → its System. */
type SystemsByProduct = { [product: string]: ProductSystem };

/** The map as kept in the cache, with when it was read (epoch milliseconds). */
type CachedSystems = { systems: SystemsByProduct; readAt: number };

/**
 * The owners of the System that represents a Product, and the annotations
 * that refine its approval policy, from the catalog. The whole Product →
 * System map is read in one query and kept in Backstage's cache, so replicas
 * sharing a cache store share it too.
 */
export class CatalogProductOwners implements ProductOwners {
  /**
   * The map this replica last read (from the cache or the catalog), kept
   * until its minute ends: the cache hands out a fresh copy of the whole map
   * on every get, so a scan looking up each of 10,000 Products spent most of
   * its time and memory deserialising it (Products² entries).
   */
  private recent?: CachedSystems;
  /** A catalog read in flight, shared by the lookups that need it. */
  private reading?: Promise<CachedSystems>;

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
    const name = formatProductRef(product);
    const fresh = this.recent && Date.now() - this.recent.readAt < TTL_MS ? this.recent : undefined;
    let cached = fresh ?? (await this.cache.get<CachedSystems>(CACHE_KEY));
    if (!cached || (!cached.systems[name] && Date.now() - cached.readAt >= MISS_REREAD_MS)) {
      cached = await (this.reading ??= this.readIntoCache().finally(() => {
        this.reading = undefined;
      }));
    }
    this.recent = cached;
    return cached.systems[name];
  }

  private async readIntoCache(): Promise<CachedSystems> {
    const read = { systems: await this.read(), readAt: Date.now() };
    await this.cache.set(CACHE_KEY, read, { ttl: TTL_MS });
    return read;
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
