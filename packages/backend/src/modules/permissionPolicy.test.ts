import { ConfigReader } from '@backstage/config';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  promotionApprovePermission,
  promotionHoldPermission,
  promotionRequestPermission,
  promotionsLadderReadPermission,
} from '@refplat/plugin-promotions-common';
import { PromotionsPermissionPolicy, incidentCommanders } from './permissionPolicy';

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

  it('allows the incident commanders approval: the plugin counts it only where an open incident asks for one', async () => {
    const withCommanders = new PromotionsPermissionPolicy({ commanders: ['group:default/incident-commanders'] });
    const dave = userWith(['user:default/dave', 'group:default/Incident-Commanders']);
    expect((await withCommanders.handle({ permission: promotionApprovePermission }, dave as any)).result).toBe(AuthorizeResult.ALLOW);
    // Everyone else is still asked about the Product's approvers; without commanders, dave too.
    const bob = userWith(['user:default/bob', 'group:default/alpha']);
    expect((await withCommanders.handle({ permission: promotionApprovePermission }, bob as any)).result).toBe(AuthorizeResult.CONDITIONAL);
    expect((await policy.handle({ permission: promotionApprovePermission }, dave as any)).result).toBe(AuthorizeResult.CONDITIONAL);
  });

  it("takes the commanders from promotions.incidents, with the plugin's default group, and none without the gate", () => {
    const incidents = (value: object) => new ConfigReader({ promotions: { incidents: value } });
    expect(incidentCommanders(incidents({ mode: 'approval' }))).toEqual(['group:default/incident-commanders']);
    expect(incidentCommanders(incidents({ mode: 'approval', commanders: ['group:default/sre'] }))).toEqual(['group:default/sre']);
    expect(incidentCommanders(new ConfigReader({ promotions: {} }))).toEqual([]);
  });

  it("lets any signed-in user read ladders, and leaves requests and holds to the plugin's ownership rule", async () => {
    for (const permission of [promotionsLadderReadPermission, promotionRequestPermission, promotionHoldPermission]) {
      const decision = await policy.handle({ permission }, userWith(['group:default/alpha']) as any);
      expect(decision.result).toBe(AuthorizeResult.ALLOW);
    }
  });
});
