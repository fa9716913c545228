import {
  BackstageCredentials,
  BackstageUserPrincipal,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { CatalogService } from '@backstage/plugin-catalog-node';
import { formatProductRef, promotionApprovePermission } from '@refplat/plugin-promotions-common';
import { PromotionsConfig } from '../config';
import { PromotionRecord, PromotionStore } from '../database/PromotionStore';
import { awaitsApprovalFrom } from './approvalRules';
import { releaseApproverCheck } from './releaseApprovers';

/**
 * A release-approver's work queue: every promotion awaiting approval that
 * they may approve, oldest first. Live promotions are few (one per Product
 * and stage at most), so this filters them rather than querying per status.
 */
export class ApprovalsInbox {
  constructor(
    private readonly options: {
      config: PromotionsConfig;
      store: PromotionStore;
      catalog: CatalogService;
      permissions: PermissionsService;
    },
  ) {}

  async list(credentials: BackstageCredentials<BackstageUserPrincipal>): Promise<PromotionRecord[]> {
    const { config, store, catalog, permissions } = this.options;
    const userEntityRef = credentials.principal.userEntityRef;
    const { isApprover } = await releaseApproverCheck(catalog, config.approval.approvers, userEntityRef, credentials);
    const caller = { userEntityRef, isApprover };
    const waiting = (await store.listLive()).filter(promotion =>
      awaitsApprovalFrom(promotion, caller, config.approval.requireDistinctApprover),
    );
    if (waiting.length === 0) return [];

    // The policy may narrow approving per Product: one batched question for all of them.
    const products = [...new Set(waiting.map(promotion => formatProductRef(promotion)))];
    const decisions = await permissions.authorize(
      products.map(resourceRef => ({ permission: promotionApprovePermission, resourceRef })),
      { credentials },
    );
    const allowed = new Set(products.filter((_, i) => decisions[i].result === AuthorizeResult.ALLOW));
    return waiting.filter(promotion => allowed.has(formatProductRef(promotion)));
  }
}
