import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
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
import { promotionApprovePermission } from '@refplat/plugin-promotions-common';

export const DEFAULT_APPROVER_GROUPS = ['group:default/release-approvers'];

/**
 * The host's policy: everyone signed in may read ladders; only members of
 * `promotions.approval.approvers` may approve. Requests, rollbacks and holds
 * pass here because the plugin scopes them to the Product itself: its
 * owners and the release-approvers (`promotions.permissions.requireOwnership`,
 * on by default). Group membership comes from the catalog through the
 * user's ownership refs, which the sign-in resolver fills from `memberOf`.
 */
export class PromotionsPermissionPolicy implements PermissionPolicy {
  constructor(private readonly approverGroups: string[]) {}

  async handle(
    request: PolicyQuery,
    user?: PolicyQueryUser,
  ): Promise<PolicyDecision> {
    if (isPermission(request.permission, promotionApprovePermission)) {
      const ownership = user?.info.ownershipEntityRefs ?? [];
      const isApprover = this.approverGroups.some(group =>
        ownership.includes(group),
      );
      return {
        result: isApprover ? AuthorizeResult.ALLOW : AuthorizeResult.DENY,
      };
    }
    return { result: AuthorizeResult.ALLOW };
  }
}

export const promotionsPermissionPolicyModule = createBackendModule({
  pluginId: 'permission',
  moduleId: 'promotions-policy',
  register(reg) {
    reg.registerInit({
      deps: { policy: policyExtensionPoint, config: coreServices.rootConfig },
      async init({ policy, config }) {
        const approverGroups =
          config.getOptionalStringArray('promotions.approval.approvers') ??
          DEFAULT_APPROVER_GROUPS;
        policy.setPolicy(new PromotionsPermissionPolicy(approverGroups));
      },
    });
  },
});
