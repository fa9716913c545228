import { mockCredentials, startTestBackend } from '@backstage/backend-test-utils';
import { coreServices, createServiceFactory, RootLoggerService } from '@backstage/backend-plugin-api';
import { Octokit } from '@octokit/rest';
import type { Promotion } from '@refplat/plugin-promotions-common';
import request from 'supertest';
import { IN_MEMORY_DATABASE_WARNING } from '../database/inMemoryDatabase';
import { sharedSim } from '../__testUtils__/sharedSimBackend';
import { eventually, promotionsBackendFeatures, readSimFile } from '../__testUtils__/testBackend';

const asUser = (name: string) => mockCredentials.user.header(`user:default/${name}`);

/** A root logger that keeps every warning, for the start-up warning. */
function recordingRootLogger() {
  const warnings: string[] = [];
  const logger: RootLoggerService = {
    error: () => {},
    warn: message => void warnings.push(message),
    info: () => {},
    debug: () => {},
    child: () => logger,
  };
  return { warnings, factory: createServiceFactory({ service: coreServices.rootLogger, deps: {}, factory: () => logger }) };
}

/** A restart on an in-memory database (was restart.api.test.ts), on the file's simulator. */
export function restartSuite() {
  /**
   * create-app's backend keeps its database in memory, and in development it restarts on every
   * save: a restart must not close an open Release PR, nor make it unapprovable.
   */
  describe('a backend restarted on an in-memory database', () => {
    // The file's simulator, and a Product of the test's own.
    const shared = sharedSim();

    it('warns at start, keeps the open prod PR open, restores its promotion, and alice can approve it', async () => {
      const { sim } = shared;
      const shop = await shared.addProduct('alpha/shop');
      const github = new Octokit({ baseUrl: sim.githubApiUrl, auth: sim.tokens.github });
      /** The open PRs of the test's Product (other suites' Products have theirs on this simulator). */
      const openPulls = async () =>
        (await github.rest.pulls.list({ owner: 'refplat', repo: 'platform', state: 'open', per_page: 100 })).data
          .filter(pr => pr.head.ref.startsWith(shop.branchPrefix))
          .map(pr => pr.number);

      const firstLogs = recordingRootLogger();
      const first = await startTestBackend({ features: [firstLogs.factory, ...promotionsBackendFeatures(sim, 'argocd', {})] });
      expect(firstLogs.warnings).toContain(IN_MEMORY_DATABASE_WARNING);
      const requested = await request(first.server)
        .post(`/api/promotions/products/${shop.ref}/promotions`)
        .set('Authorization', asUser('bob'))
        .send({ toStage: 'prod' });
      expect(requested.status).toBe(201);
      const promotion: Promotion = requested.body.promotion;
      expect(promotion.status).toBe('awaiting-approval');
      await first.stop();

      // The restarted backend's database has never heard of the promotion; its Gate sweeps at once.
      const second = await startTestBackend({ features: promotionsBackendFeatures(sim, 'argocd', {}) });
      try {
        const restored = await eventually(async () => {
          const { status, body } = await request(second.server)
            .get(`/api/promotions/promotions/${promotion.id}`)
            .set('Authorization', asUser('bob'));
          return status === 200 && body.promotion.pullRequest.number === promotion.pullRequest.number
            ? (body.promotion as Promotion)
            : undefined;
        }, 30_000);
        expect(restored).toMatchObject({
          status: 'awaiting-approval',
          fromStage: 'staging',
          toStage: 'prod',
          services: promotion.services,
          requestedBy: 'user:default/bob',
        });
        expect(await openPulls()).toEqual([promotion.pullRequest.number]);
        // The Gate verifies the restored PR's content before anyone may approve its head.
        await eventually(async () => {
          const { body } = await request(second.server)
            .get(`/api/promotions/promotions/${promotion.id}`)
            .set('Authorization', asUser('bob'));
          return body.events.some((event: { type: string }) => event.type === 'checks-passed') ? true : undefined;
        }, 30_000);

        const byBob = await request(second.server)
          .post(`/api/promotions/promotions/${promotion.id}/approve`)
          .set('Authorization', asUser('bob'));
        expect(byBob.status).toBe(403);
        const byAlice = await request(second.server)
          .post(`/api/promotions/promotions/${promotion.id}/approve`)
          .set('Authorization', asUser('alice'));
        expect({ status: byAlice.status, error: byAlice.body.error?.message }).toEqual({ status: 200, error: undefined });
        await eventually(async () => {
          const { body } = await request(second.server)
            .get(`/api/promotions/promotions/${promotion.id}`)
            .set('Authorization', asUser('bob'));
          return body.promotion.status === 'merged' ? true : undefined;
        }, 60_000);
        expect(await openPulls()).toEqual([]);
        const [service, digest] = Object.entries(promotion.services)[0];
        expect(readSimFile(sim, shop.releasePath('prod'))).toContain(digest);
        expect(service).toBe('cart');
      } finally {
        await second.stop();
      }
    });
  });
}
