import request from 'supertest';
import { mockCredentials } from '@backstage/backend-test-utils';
import { RunningSim, startPlatformSim } from '@refplat/platform-sim';
import { simAddresses, startPromotionsTestBackend } from '../__testUtils__/testBackend';

// An adopter's first misconfiguration: what the ladder answers, for the card to show.
describe('the ladder with a token its upstream refuses', () => {
  let sim: RunningSim;
  beforeAll(async () => {
    sim = await startPlatformSim();
  });
  afterAll(() => sim?.stop());

  const ladderWith = async (tokens: Partial<RunningSim['tokens']>) => {
    const addresses = simAddresses(sim);
    const backend = await startPromotionsTestBackend({ ...addresses, tokens: { ...addresses.tokens, ...tokens } }, 'argocd');
    try {
      return await request(backend.server)
        .get('/api/promotions/products/alpha/shop/ladder')
        .set('authorization', mockCredentials.user.header('user:default/bob'));
    } finally {
      await backend.stop();
    }
  };

  it("answers 503 with GitHub's refusal of its token", async () => {
    const response = await ladderWith({ github: 'a-mistyped-token' });
    expect(response.status).toBe(503);
    expect(response.body.error.message).toMatch(/^GitHub failed while reading .* \(HTTP 401\): Bad credentials/);
  });

  it("answers the ladder from GitHub, health unknown because ArgoCD refused the token, saying so", async () => {
    const response = await ladderWith({ argocd: 'a-mistyped-token' });
    expect(response.status).toBe(200);
    expect(response.body.healthError).toMatch(/^ArgoCD 'argocd' rejected the token \(HTTP 401 .*\): set promotions\.argocd\.token to a valid ArgoCD API token/);
    expect(response.body.stages[0].reasons[0]).toMatch(/^storefront, cart, checkout: ArgoCD refused the plugin: /);
    expect(JSON.stringify(response.body)).not.toMatch(/ArgoCD unreachable/);
  });
});
