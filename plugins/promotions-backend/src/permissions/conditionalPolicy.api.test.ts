import { coreServices, createBackendModule, createServiceFactory } from '@backstage/backend-plugin-api';
import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { AuthorizeResult, PolicyDecision, isPermission } from '@backstage/plugin-permission-common';
import { PolicyQuery, PolicyQueryUser } from '@backstage/plugin-permission-node';
import { policyExtensionPoint } from '@backstage/plugin-permission-node/alpha';
import { promotionRequestPermission } from '@refplat/plugin-promotions-common';
import { RunningSim, startPlatformSim } from '@refplat/platform-sim';
import request from 'supertest';
import permissionBackend from '@backstage/plugin-permission-backend';
import { githubWrites } from '../__testUtils__/sharedSimBackend';
import { startPromotionsBackend } from '../__testUtils__/testBackend';
import { createPromotionsProductConditionalDecision, promotionsProductConditions } from './productRules';

jest.setTimeout(120_000);

/**
 * An adopter's policy, as the README shows it: requests go to the Product's
 * owners and the release-approvers, by conditions the plugin resolves.
 */
const conditionalPolicyModule = createBackendModule({
  pluginId: 'permission',
  moduleId: 'conditional-promotions-policy',
  register(reg) {
    reg.registerInit({
      deps: { policy: policyExtensionPoint },
      async init({ policy }) {
        policy.setPolicy({
          async handle(query: PolicyQuery, user?: PolicyQueryUser): Promise<PolicyDecision> {
            if (isPermission(query.permission, promotionRequestPermission)) {
              const claims = user?.info.ownershipEntityRefs ?? [];
              return createPromotionsProductConditionalDecision(query.permission, {
                anyOf: [
                  promotionsProductConditions.isProductOwner({ claims }),
                  promotionsProductConditions.isInApproverGroups({ claims }),
                ],
              });
            }
            return { result: AuthorizeResult.ALLOW };
          },
        });
      },
    });
  },
});

/**
 * The mock auth service, except that a plugin calling another on a user's
 * behalf sends a user token naming itself as the actor, as the real auth
 * service does. The mock drops the actor, and the permissions registry's
 * apply-conditions endpoint refuses a user without one.
 */
const authWithActors = createServiceFactory({
  service: coreServices.auth,
  deps: { plugin: coreServices.pluginMetadata },
  factory({ plugin }) {
    const auth = mockServices.auth({ pluginId: plugin.getId() });
    const issue = auth.getPluginRequestToken.bind(auth);
    auth.getPluginRequestToken = async options => {
      const principal = options.onBehalfOf.principal;
      if (!auth.isPrincipal(options.onBehalfOf, 'user')) return issue(options);
      const { userEntityRef } = principal as { userEntityRef: string };
      return { token: mockCredentials.user.token(userEntityRef, { actor: { subject: `plugin:${plugin.getId()}` } }) };
    };
    return auth;
  },
});

describe('a conditional permission policy on Products', () => {
  let sim: RunningSim;

  beforeEach(async () => {
    sim = await startPlatformSim();
  });

  afterEach(async () => {
    await sim.stop();
  });

  it("lets the policy's isProductOwner condition decide requests: bob on alpha/shop, not on beta/payments", async () => {
    // The plugin's own ownership check is off, so the 403 below is the policy's.
    const server = await startPromotionsBackend(sim, 'argocd', {
      permissions: { requireOwnership: false },
      rootConfig: { permission: { enabled: true } },
      services: [authWithActors],
      features: [permissionBackend, conditionalPolicyModule],
    });
    const requestPromotion = (product: string, user: string, toStage = 'test') =>
      request(server)
        .post(`/api/promotions/products/${product}/promotions`)
        .set('Authorization', mockCredentials.user.header(`user:default/${user}`))
        .send({ toStage });

    sim.control.clearRequests();
    const refused = await requestPromotion('beta/payments', 'bob');
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('Not allowed: promotions.promotion.request on beta/payments');
    expect(githubWrites(sim)).toEqual([]);

    expect((await requestPromotion('alpha/shop', 'bob')).status).toBe(201);
    // alice owns no Product, but is a release-approver: the policy's other condition
    const toProd = await requestPromotion('alpha/shop', 'alice', 'prod');
    expect(toProd.status).toBe(201);

    // This policy allows approval to everyone; the plugin still wants a release-approver.
    const byBob = await request(server)
      .post(`/api/promotions/promotions/${toProd.body.promotion.id}/approve`)
      .set('Authorization', mockCredentials.user.header('user:default/bob'));
    expect(byBob.status).toBe(403);
    expect(byBob.body.error.message).toMatch(/Bob Builder is not a release-approver/);

    // reading is unconditional in this policy
    const ladder = await request(server)
      .get('/api/promotions/products/beta/payments/ladder')
      .set('Authorization', mockCredentials.user.header('user:default/bob'));
    expect(ladder.status).toBe(200);
  });
});
