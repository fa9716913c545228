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
  const policy = new PromotionsPermissionPolicy(['group:default/release-approvers']);

  it.each([
    ['a release-approver', ['user:default/alice', 'group:default/release-approvers'], AuthorizeResult.ALLOW],
    ['a developer', ['user:default/bob', 'group:default/alpha'], AuthorizeResult.DENY],
    ['nobody', [], AuthorizeResult.DENY],
  ])('decides whether %s may approve', async (_who, refs, expected) => {
    const decision = await policy.handle({ permission: promotionApprovePermission }, userWith(refs) as any);
    expect(decision.result).toBe(expected);
  });

  it("lets any signed-in user read ladders, and leaves requests and holds to the plugin's ownership rule", async () => {
    for (const permission of [promotionsLadderReadPermission, promotionRequestPermission, promotionHoldPermission]) {
      const decision = await policy.handle({ permission }, userWith(['group:default/alpha']) as any);
      expect(decision.result).toBe(AuthorizeResult.ALLOW);
    }
  });
});
