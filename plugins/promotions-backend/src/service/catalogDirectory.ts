import { AuthService, CacheService, LoggerService } from '@backstage/backend-plugin-api';
import { CatalogService } from '@backstage/plugin-catalog-node';
import type { PromotionsDirectory } from '@refplat/plugin-promotions-node';
import { CatalogActorNames } from './ActorNames';
import { CatalogApproverDirectory } from './CatalogApproverDirectory';
import { CatalogProductOwners } from './ProductOwners';

/** The catalog as the plugin's directory: the default of promotionsDirectoryExtensionPoint. */
export function catalogDirectory(deps: {
  catalog: CatalogService;
  auth: AuthService;
  cache: CacheService;
  logger: LoggerService;
}): PromotionsDirectory {
  const owners = new CatalogProductOwners(deps.catalog, deps.auth, deps.cache);
  const names = new CatalogActorNames(deps);
  const approvers = new CatalogApproverDirectory(deps.catalog);
  return {
    of: product => owners.of(product),
    approvalAnnotations: product => owners.approvalAnnotations(product),
    namesOf: actors => names.namesOf(actors),
    candidate: (userEntityRef, credentials) => approvers.candidate(userEntityRef, credentials),
  };
}
