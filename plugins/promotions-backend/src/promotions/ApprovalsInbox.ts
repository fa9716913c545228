import {
  BackstageCredentials,
  BackstageUserPrincipal,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  awaitsApprovalFrom,
  formatProductRef,
  isApprover,
  promotionApprovePermission,
  recordedApprovals,
} from '@refplat/plugin-promotions-common';
import { PromotionsConfig } from '../config';
import { PromotionRecord, PromotionStore } from '../database/PromotionStore';
import { ApprovalRights } from './ApprovalRights';

/**
 * An approver's work queue: every promotion awaiting approval that they may
 * approve (one of its Product's approvers, not its requester, not yet
 * approved by them), oldest first. Live promotions are few (one per Product
 * and stage at most), so this filters them rather than querying per status.
 */
export class ApprovalsInbox {
  constructor(
    private readonly options: {
      config: PromotionsConfig;
      store: PromotionStore;
      rights: ApprovalRights;
      permissions: PermissionsService;
    },
  ) {}

  async list(credentials: BackstageCredentials<BackstageUserPrincipal>): Promise<PromotionRecord[]> {
    const { config, store, rights, permissions } = this.options;
    const awaiting = (await store.listLive()).filter(promotion => promotion.status === 'awaiting-approval');
    if (awaiting.length === 0) return [];
    const candidate = await rights.candidate(credentials.principal.userEntityRef, credentials);
    const waiting: PromotionRecord[] = [];
    for (const promotion of awaiting) {
      const policy = await rights.policyOf(promotion);
      const caller = { userEntityRef: candidate.userEntityRef, isApprover: isApprover(candidate.claims, policy) };
      // The trail only for promotions the caller could approve at all: it says whether they already did.
      const approvals = caller.isApprover ? recordedApprovals(await store.listEvents(promotion.id)) : [];
      if (awaitsApprovalFrom(promotion, approvals, caller, config.approval.requireDistinctApprover)) {
        waiting.push(promotion);
      }
    }
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
