import type { BackstageCredentials } from '@backstage/backend-plugin-api';
import { actorNameWithoutCatalog } from '@refplat/plugin-promotions-common';
import type { ProductRef } from '@refplat/plugin-promotions-common';
import { ActorNames, ApproverCandidate, ApproverDirectory, NameOf, ProductOwners } from '@refplat/plugin-promotions-node';

/**
 * The catalog as the promotions read it, from what the test says: each
 * Product's owners and approval annotations, each user's Groups, and
 * people's display names. An actor without a name is called by its
 * entity name, as the catalog adapter calls one it could not look up.
 *
 * @public
 */
export class FakeDirectory implements ProductOwners, ActorNames, ApproverDirectory {
  private readonly products = new Map<string, { owners: string[]; annotations?: Record<string, string> }>();
  private readonly groups = new Map<string, string[]>();
  private readonly names = new Map<string, string>();

  /** The Product's System: its owners (Group refs) and approval annotations. */
  setProduct(product: ProductRef, system: { owners: string[]; annotations?: Record<string, string> }): this {
    this.products.set(`${product.team}/${product.product}`, system);
    return this;
  }

  /** A user, the Groups they are a member of, and their display name. */
  setUser(userEntityRef: string, user: { groups?: string[]; name?: string }): this {
    this.groups.set(userEntityRef, user.groups ?? []);
    if (user.name) this.names.set(userEntityRef, user.name);
    return this;
  }

  /** Any actor's (a Group's too) display name. */
  setName(entityRef: string, name: string): this {
    this.names.set(entityRef, name);
    return this;
  }

  async of(product: ProductRef): Promise<string[]> {
    return [...(this.products.get(`${product.team}/${product.product}`)?.owners ?? [])];
  }

  async approvalAnnotations(product: ProductRef): Promise<Record<string, string> | undefined> {
    const system = this.products.get(`${product.team}/${product.product}`);
    return system && { ...system.annotations };
  }

  async namesOf(_actors: Iterable<string | undefined>): Promise<NameOf> {
    const names = new Map(this.names);
    return actor => names.get(actor) ?? actorNameWithoutCatalog(actor);
  }

  async candidate(userEntityRef: string, _credentials: BackstageCredentials): Promise<ApproverCandidate> {
    return {
      userEntityRef,
      claims: [userEntityRef, ...(this.groups.get(userEntityRef) ?? [])],
      name: this.names.get(userEntityRef) ?? actorNameWithoutCatalog(userEntityRef),
    };
  }
}
