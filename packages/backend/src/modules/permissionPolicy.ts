import { createBackendModule } from '@backstage/backend-plugin-api';
import {
  AuthorizeResult,
  PolicyDecision,
  isPermission,
} from '@backstage/plugin-permission-common';
import {
  PermissionPolicy,
  PolicyQuery,
  PolicyQueryUser,
} from '@backstage/plugin-permission-node';
import { policyExtensionPoint } from '@backstage/plugin-permission-node/alpha';
import {
  createPromotionsProductConditionalDecision,
  promotionsProductConditions,
} from '@refplat/plugin-promotions-backend';
import { promotionApprovePermission } from '@refplat/plugin-promotions-common';

/**
 * The host's policy: everyone signed in may read ladders; only a Product's
 * approvers may approve its promotions. That is a conditional decision on
 * the plugin's `IS_IN_APPROVER_GROUPS` rule, which the permission backend
 * resolves against the Product: `promotions.approval.approvers` with what
 * its System adds (`refplat.org/approvers`: erin's `shop-release` on the
 * shop, not on the blog). Requests, rollbacks and holds pass here because
 * the plugin scopes them to the Product itself: its owners and the
 * release-approvers (`promotions.permissions.requireOwnership`, on by
 * default). Group membership comes from the catalog through the user's
 * ownership refs, which the sign-in resolver fills from `memberOf`.
 */
export class PromotionsPermissionPolicy implements PermissionPolicy {
  async handle(
    request: PolicyQuery,
    user?: PolicyQueryUser,
  ): Promise<PolicyDecision> {
    if (isPermission(request.permission, promotionApprovePermission)) {
      return createPromotionsProductConditionalDecision(
        request.permission,
        promotionsProductConditions.isInApproverGroups({
          claims: user?.info.ownershipEntityRefs ?? [],
        }),
      );
    }
    return { result: AuthorizeResult.ALLOW };
  }
}

export const promotionsPermissionPolicyModule = createBackendModule({
  pluginId: 'permission',
  moduleId: 'promotions-policy',
  register(reg) {
    reg.registerInit({
      deps: { policy: policyExtensionPoint },
      async init({ policy }) {
        policy.setPolicy(new PromotionsPermissionPolicy());
      },
    });
  },
});
