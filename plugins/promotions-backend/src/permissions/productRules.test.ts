import { PermissionsRegistryService } from '@backstage/backend-plugin-api';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  createConditionAuthorizer,
  createConditionTransformer,
  createPermissionIntegrationRouter,
} from '@backstage/plugin-permission-node';
import {
  PromotionsProductResource,
  matchesPromotionsProductQuery,
  promotionRequestPermission,
} from '@refplat/plugin-promotions-common';
import express from 'express';
import request from 'supertest';
import { loadProductResource, registerProductResourceType } from './productResourceType';
import {
  createPromotionsProductConditionalDecision,
  promotionsProductConditions,
  promotionsProductPermissionRules,
} from './productRules';

const SHOP: PromotionsProductResource = {
  product: 'alpha/shop',
  owners: ['group:default/alpha'],
  approvers: ['group:default/release-approvers'],
};
const BOB = ['user:default/bob', 'group:default/alpha'];
const ALICE = ['user:default/alice', 'group:default/release-approvers', 'group:default/platform'];
const rules = Object.values(promotionsProductPermissionRules);

describe('the promotions-product rules', () => {
  it.each([
    ['isProductOwner', BOB, true],
    ['isProductOwner', ALICE, false],
    ['isInApproverGroups', BOB, false],
    ['isInApproverGroups', ALICE, true],
  ] as const)('%s with %p → %p, the same through apply and toQuery', (name, claims, expected) => {
    const rule = promotionsProductPermissionRules[name];
    expect(rule.apply(SHOP, { claims: [...claims] })).toBe(expected);
    const query = rule.toQuery({ claims: [...claims] });
    expect(matchesPromotionsProductQuery(SHOP, query as never)).toBe(expected);
  });

  it('gives a policy conditions naming the rules, and transforms them to queries', () => {
    const condition = promotionsProductConditions.isProductOwner({ claims: BOB });
    expect(condition).toEqual({
      resourceType: 'promotions-product',
      rule: 'IS_PRODUCT_OWNER',
      params: { claims: BOB },
    });
    expect(createConditionTransformer(rules)({ not: condition })).toEqual({
      not: { key: 'owners', anyOf: BOB },
    });
  });

  it('decides a conditional decision on a loaded Product, and rejects malformed params', () => {
    const authorize = createConditionAuthorizer(rules);
    const decision = (conditions: Parameters<typeof createPromotionsProductConditionalDecision>[1]) =>
      createPromotionsProductConditionalDecision(promotionRequestPermission, conditions);
    expect(authorize(decision(promotionsProductConditions.isProductOwner({ claims: BOB })), SHOP)).toBe(true);
    expect(authorize(decision(promotionsProductConditions.isProductOwner({ claims: ALICE })), SHOP)).toBe(false);
    const either = decision({
      anyOf: [
        promotionsProductConditions.isProductOwner({ claims: ALICE }),
        promotionsProductConditions.isInApproverGroups({ claims: ALICE }),
      ],
    });
    expect(authorize(either, SHOP)).toBe(true);
    const typo = { resourceType: 'promotions-product', rule: 'IS_PRODUCT_OWNER', params: { claim: BOB } };
    expect(() => authorize(decision(typo as never), SHOP)).toThrow(/Parameters to rule are invalid/);
  });
});

describe('loadProductResource', () => {
  const sources = {
    owners: { of: async ({ product }: { product: string }) => (product === 'shop' ? ['group:default/alpha'] : []) },
    approvers: async () => SHOP.approvers,
  };
  it.each([
    ['alpha/shop', SHOP],
    ['beta/payments', { product: 'beta/payments', owners: [], approvers: SHOP.approvers }],
    ['not a product', undefined],
    ['alpha/shop/extra', undefined],
  ])('%p → %p', async (ref, expected) => {
    expect(await loadProductResource(ref, sources)).toEqual(expected);
  });
  it('loads nothing while the plugin is not configured', async () => {
    expect(await loadProductResource('alpha/shop', undefined)).toBeUndefined();
  });
});

describe('registerProductResourceType, through the permission integration endpoints', () => {
  /** The integration router the default permissions registry mounts on the plugin's router. */
  function registryApp() {
    const router = createPermissionIntegrationRouter();
    const registry = {
      addResourceType: resource =>
        router.addResourceType({ ...resource, resourceType: resource.resourceRef.resourceType }),
    } as Pick<PermissionsRegistryService, 'addResourceType'> as PermissionsRegistryService;
    const connect = registerProductResourceType(registry);
    const app = express().use(router);
    return { app, connect };
  }
  const applyOwner = (app: express.Express, resourceRef: string, claims: string[]) =>
    request(app)
      .post('/.well-known/backstage/permissions/apply-conditions')
      .send({
        items: [
          {
            id: '1',
            resourceRef,
            resourceType: 'promotions-product',
            conditions: promotionsProductConditions.isProductOwner({ claims }),
          },
        ],
      });

  it('publishes the permissions and rules with their params schema', async () => {
    const { app } = registryApp();
    const metadata = await request(app).get('/.well-known/backstage/permissions/metadata');
    expect(metadata.status).toBe(200);
    expect(metadata.body.permissions.map((p: { name: string }) => p.name)).toEqual([
      'promotions.ladder.read',
      'promotions.promotion.request',
      'promotions.promotion.approve',
      'promotions.hold.manage',
    ]);
    expect(metadata.body.rules).toEqual([
      expect.objectContaining({
        name: 'IS_PRODUCT_OWNER',
        resourceType: 'promotions-product',
        paramsSchema: expect.objectContaining({ required: ['claims'] }),
      }),
      expect.objectContaining({ name: 'IS_IN_APPROVER_GROUPS', resourceType: 'promotions-product' }),
    ]);
  });

  it("allows the Product's owners and denies others once connected; denies everyone before", async () => {
    const { app, connect } = registryApp();
    expect((await applyOwner(app, 'alpha/shop', BOB)).body.items).toEqual([{ id: '1', result: AuthorizeResult.DENY }]);

    connect({
      owners: { of: async ({ team }) => [`group:default/${team}`] },
      approvers: async () => SHOP.approvers,
    });
    expect((await applyOwner(app, 'alpha/shop', BOB)).body.items).toEqual([{ id: '1', result: AuthorizeResult.ALLOW }]);
    expect((await applyOwner(app, 'beta/payments', BOB)).body.items).toEqual([{ id: '1', result: AuthorizeResult.DENY }]);
  });
});
