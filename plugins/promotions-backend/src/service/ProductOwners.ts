import { AuthService } from '@backstage/backend-plugin-api';
import { parseEntityRef, stringifyEntityRef } from '@backstage/catalog-model';
import { CatalogService } from '@backstage/plugin-catalog-node';
import { PRODUCT_ANNOTATION, ProductRef, formatProductRef } from '@refplat/plugin-promotions-common';

const TTL_MS = 60_000;

/** The owners of the System that represents a Product, from the catalog. */
export class ProductOwners {
  private cached?: { at: number; owners: Map<string, string[]> };

  constructor(
    private readonly catalog: CatalogService,
    private readonly auth: AuthService,
  ) {}

  async of(product: ProductRef): Promise<string[]> {
    if (!this.cached || Date.now() - this.cached.at > TTL_MS) {
      const { items } = await this.catalog.getEntities(
        { filter: { kind: 'System' }, fields: ['metadata.annotations', 'spec.owner'] },
        { credentials: await this.auth.getOwnServiceCredentials() },
      );
      const owners = new Map<string, string[]>();
      for (const entity of items) {
        const name = entity.metadata.annotations?.[PRODUCT_ANNOTATION];
        const owner = (entity.spec as { owner?: string } | undefined)?.owner;
        if (name && owner) {
          const ref = parseEntityRef(owner, { defaultKind: 'group', defaultNamespace: 'default' });
          owners.set(name.trim(), [stringifyEntityRef(ref)]);
        }
      }
      this.cached = { at: Date.now(), owners };
    }
    return this.cached.owners.get(formatProductRef(product)) ?? [];
  }
}
