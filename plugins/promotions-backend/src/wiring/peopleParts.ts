import { ProductRef } from '@refplat/plugin-promotions-common';
import { ApprovalRights } from '../promotions/ApprovalRights';
import { PromotionsBroadcaster } from '../promotions/PromotionsBroadcaster';
import { catalogDirectory } from '../service/catalogDirectory';
import { PartDeps } from './deps';

/** Who people are, who owns and who approves a Product, and how they are told. */
export function peopleParts({ rootConfig, config, catalog, auth, cache, logger, permissions, ...deps }: PartDeps) {
  const directory = deps.directory ?? catalogDirectory({ catalog, auth, cache, logger });
  const approvalRights = new ApprovalRights({ config, owners: directory, directory, logger });
  const appBaseUrl = rootConfig.getOptionalString('app.baseUrl');
  // Notifications and Release PRs link the Product's System page.
  const entityUrl = appBaseUrl
    ? (product: ProductRef) => `${appBaseUrl}/catalog/default/system/${product.product}`
    : undefined;
  const broadcaster = new PromotionsBroadcaster({
    signals: deps.signals,
    notifications: deps.notifications,
    approvers: product => approvalRights.approversOf(product),
    approvalStages: config.approval.stages,
    entityUrl,
    logger,
    names: directory,
  });
  return {
    /** Owners of Products and people's names. */
    directory,
    approvalRights,
    broadcaster,
    entityUrl,
  };
}

export type PeopleParts = ReturnType<typeof peopleParts>;
