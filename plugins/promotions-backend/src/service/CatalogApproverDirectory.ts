import { BackstageCredentials } from '@backstage/backend-plugin-api';
import { RELATION_MEMBER_OF } from '@backstage/catalog-model';
import { CatalogService } from '@backstage/plugin-catalog-node';
import { actorNameWithoutCatalog, entityDisplayName } from '@refplat/plugin-promotions-common';
import type { ApproverCandidate, ApproverDirectory } from '@refplat/plugin-promotions-node';

/** Users' Group memberships and names as the catalog records them, read with the user's own credentials. */
export class CatalogApproverDirectory implements ApproverDirectory {
  constructor(private readonly catalog: CatalogService) {}

  async candidate(userEntityRef: string, credentials: BackstageCredentials): Promise<ApproverCandidate> {
    const user = await this.catalog.getEntityByRef(userEntityRef, { credentials });
    const groups = (user?.relations ?? [])
      .filter(relation => relation.type === RELATION_MEMBER_OF)
      .map(relation => relation.targetRef);
    return {
      userEntityRef,
      claims: [userEntityRef, ...groups],
      name: user ? entityDisplayName(user) : actorNameWithoutCatalog(userEntityRef),
    };
  }
}
