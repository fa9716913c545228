import { createExtensionPoint } from '@backstage/backend-plugin-api';
import type { ActorNames, ApproverDirectory, ProductOwners } from './ports';

/**
 * Everything the plugin asks the directory: each Product's owners and
 * approval annotations, who a would-be approver is, and people's names.
 * The catalog answers it by default.
 *
 * @public
 */
export interface PromotionsDirectory extends ProductOwners, ApproverDirectory, ActorNames {}

/**
 * Builds the directory a module puts in place of the catalog. `getDefault`
 * answers the catalog's, so that a module can answer one question itself
 * (say, Group memberships from LDAP) and pass the others on.
 *
 * @public
 */
export type PromotionsDirectoryFactory = (options: {
  getDefault(): Promise<PromotionsDirectory>;
}) => PromotionsDirectory | Promise<PromotionsDirectory>;

/**
 * The interface of {@link promotionsDirectoryExtensionPoint}.
 *
 * @public
 */
export interface PromotionsDirectoryExtensionPoint {
  /**
   * Puts this directory (or the one the factory builds) in place of the
   * catalog. At most one module may: a second call throws, and the backend
   * does not start.
   */
  setDirectory(directory: PromotionsDirectory | PromotionsDirectoryFactory): void;
}

/**
 * Lets one backend module replace the catalog as the plugin's directory:
 * who owns a Product (and so who is notified and who may change it), who
 * may approve its promotions, and the names people read.
 *
 * @public
 */
export const promotionsDirectoryExtensionPoint = createExtensionPoint<PromotionsDirectoryExtensionPoint>({
  id: 'promotions.directory',
});
