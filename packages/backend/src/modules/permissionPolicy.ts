import { coreServices, createBackendModule } from '@backstage/backend-plugin-api';
import { Config } from '@backstage/config';
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
 *
 * The incident commanders (`promotions.incidents.commanders`) are allowed
 * approval too: the plugin counts a commander's approval only where an open
 * incident in the gate's approval mode asks for one, and everything else
 * approval-like (rejecting, overriding, approving otherwise) still needs a
 * release-approver, whatever the policy says.
 */
export class PromotionsPermissionPolicy implements PermissionPolicy {
  private readonly commanders: string[];

  constructor(options: { commanders?: string[] } = {}) {
    this.commanders = (options.commanders ?? []).map(ref => ref.toLocaleLowerCase('en-US'));
  }

  async handle(
    request: PolicyQuery,
    user?: PolicyQueryUser,
  ): Promise<PolicyDecision> {
    if (isPermission(request.permission, promotionApprovePermission)) {
      const claims = user?.info.ownershipEntityRefs ?? [];
      if (claims.some(ref => this.commanders.includes(ref.toLocaleLowerCase('en-US')))) {
        return { result: AuthorizeResult.ALLOW };
      }
      return createPromotionsProductConditionalDecision(
        request.permission,
        promotionsProductConditions.isInApproverGroups({ claims }),
      );
    }
    return { result: AuthorizeResult.ALLOW };
  }
}

/**
 * The incident gate's commanders: `promotions.incidents.commanders`, or the
 * plugin's default group when the gate is configured without them; none
 * without the gate.
 */
export function incidentCommanders(config: Config): string[] {
  if (!config.has('promotions.incidents')) return [];
  return (
    config.getOptionalStringArray('promotions.incidents.commanders') ?? [
      'group:default/incident-commanders',
    ]
  );
}

export const promotionsPermissionPolicyModule = createBackendModule({
  pluginId: 'permission',
  moduleId: 'promotions-policy',
  register(reg) {
    reg.registerInit({
      deps: { policy: policyExtensionPoint, config: coreServices.rootConfig },
      async init({ policy, config }) {
        policy.setPolicy(
          new PromotionsPermissionPolicy({ commanders: incidentCommanders(config) }),
        );
      },
    });
  },
});
