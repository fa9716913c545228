import { mockCredentials } from '@backstage/backend-test-utils';
import type { Ladder } from '@refplat/plugin-promotions-common';
import request from 'supertest';
import type { startPromotionsBackend } from './testBackend';

type Server = Awaited<ReturnType<typeof startPromotionsBackend>>;

/** A Product's ladder as bob (a developer on alpha) sees it; anything but 200 fails the test. */
export async function getLadder(server: Server, product = 'alpha/shop'): Promise<Ladder> {
  const response = await request(server)
    .get(`/api/promotions/products/${product}/ladder`)
    .set('Authorization', mockCredentials.user.header('user:default/bob'));
  expect(response.status).toBe(200);
  return response.body;
}

/**
 * Every stage healthy with no reason, and each Service running exactly the digest its
 * Release names: a settled platform, read right (each failure names its stage or Service).
 */
export function expectSettled(ladder: Ladder): void {
  for (const stage of ladder.stages) {
    expect({ stage: stage.name, verdict: stage.verdict, reasons: stage.reasons }).toEqual({
      stage: stage.name,
      verdict: 'healthy',
      reasons: [],
    });
    for (const [service, cell] of Object.entries(stage.services)) {
      expect({ service, running: cell.runningDigests }).toEqual({ service, running: [cell.digest] });
    }
  }
}

/** A ladder without its times and links: what two health sources must agree on. */
export function comparableLadder(ladder: Ladder) {
  return ladder.stages.map(stage => ({
    name: stage.name,
    verdict: stage.verdict,
    revision: stage.application?.revision,
    services: Object.fromEntries(
      Object.entries(stage.services).map(([service, cell]) => [
        service,
        {
          digest: cell.digest,
          verdict: cell.verdict,
          running: cell.runningDigests,
          checks: cell.checks?.map(check => [check.id, check.verdict, check.detail]),
        },
      ]),
    ),
  }));
}
