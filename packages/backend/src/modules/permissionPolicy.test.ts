import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  promotionApprovePermission,
  promotionHoldPermission,
  promotionRequestPermission,
  promotionsLadderReadPermission,
} from '@refplat/plugin-promotions-common';
import { PromotionsPermissionPolicy } from './permissionPolicy';

function userWith(ownershipEntityRefs: string[]) {
  return {
    identity: { type: 'user' as const, userEntityRef: 'user:default/x', ownershipEntityRefs },
    info: { userEntityRef: 'user:default/x', ownershipEntityRefs },
    token: 'token',
    credentials: {} as any,
  };
}

describe('PromotionsPermissionPolicy', () => {
  const policy = new PromotionsPermissionPolicy();

  it("answers approval with a condition on the Product: the caller's refs among its approvers (the plugin's rule)", async () => {
    const refs = ['user:default/erin', 'group:default/shop-release'];
    const decision = await policy.handle({ permission: promotionApprovePermission }, userWith(refs) as any);
    expect(decision).toEqual({
      result: AuthorizeResult.CONDITIONAL,
      pluginId: 'promotions',
      resourceType: 'promotions-product',
      conditions: { rule: 'IS_IN_APPROVER_GROUPS', resourceType: 'promotions-product', params: { claims: refs } },
    });
  });

  it("lets any signed-in user read ladders, and leaves requests and holds to the plugin's ownership rule", async () => {
    for (const permission of [promotionsLadderReadPermission, promotionRequestPermission, promotionHoldPermission]) {
      const decision = await policy.handle({ permission }, userWith(['group:default/alpha']) as any);
      expect(decision.result).toBe(AuthorizeResult.ALLOW);
    }
  });
});
