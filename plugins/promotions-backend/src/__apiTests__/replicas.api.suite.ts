import { TestDatabases, mockCredentials } from '@backstage/backend-test-utils';
import { Octokit } from '@octokit/rest';
import type { NotificationSendOptions } from '@backstage/plugin-notifications-node';
import request from 'supertest';
import { backendPerTest, sharedSim } from '../__testUtils__/sharedSimBackend';
import { sendConcurrently } from '../__testUtils__/concurrentRequests';
import { getLadder } from '../__testUtils__/ladderViews';
import { recordingNotifications } from '../__testUtils__/recordingNotifications';
import { STUCK_SWEEP_EVERY_SECOND, sweepsPassed } from '../__testUtils__/stuckSweep';
import { eventually } from '../__testUtils__/testBackend';

/** Replicas behind a load balancer (was replicas.api.test.ts), on the file's simulator. */
export function replicasSuite() {
  describe('replicas', () => {
    const databases = TestDatabases.create({ ids: ['POSTGRES_15', 'SQLITE_3'] });
    // The file's simulator; each test has replicas of its own (stopped after it) and a Product of its own.
    const shared = sharedSim();
    const startPromotionsBackend = backendPerTest();

    /**
     * Two backend instances (separate caches, Gates and GitHub clients) on one
     * database, as two replicas behind a load balancer: concurrent identical
     * requests spread over both end in exactly one PR, and a stall both sweep
     * and show is notified once.
     */
    describe.each(databases.eachSupportedId())('two replicas on one %p database', databaseId => {
      it('open one PR for 20 identical requests spread over both', async () => {
        const { sim } = shared;
        const shop = await shared.addProduct('alpha/shop');
        const knex = await databases.init(databaseId);
        const replicas = [
          await startPromotionsBackend(sim, 'argocd', { knex }),
          await startPromotionsBackend(sim, 'argocd', { knex }),
        ];
        const answers = await sendConcurrently(20, i =>
          request(replicas[i % 2])
            .post(`/api/promotions/products/${shop.ref}/promotions`)
            .set('Authorization', mockCredentials.user.header('user:default/bob'))
            .send({ toStage: 'prod' }),
        );
        expect(answers.map(r => r.status).sort()).toEqual([...Array(19).fill(200), 201]);
        expect(new Set(answers.map(r => r.body.promotion.pullRequest.number)).size).toBe(1);

        const github = new Octokit({ baseUrl: sim.githubApiUrl, auth: sim.tokens.github });
        const { data: pulls } = await github.rest.pulls.list({ owner: 'refplat', repo: 'platform', state: 'all', per_page: 100 });
        expect(pulls.filter(pull => pull.head.ref.startsWith(shop.branchPrefix))).toHaveLength(1);
      });

      it('notify the owners of a stall once though both replicas sweep and view it', async () => {
        const { sim } = shared;
        const shop = await shared.addProduct('alpha/shop');
        const knex = await databases.init(databaseId);
        const sent: NotificationSendOptions[] = [];
        // Each replica its own in-memory cache, as without a shared cache store; both sweep every second.
        const replicas = [
          await startPromotionsBackend(sim, 'argocd', { knex, services: [recordingNotifications(sent)], promotions: STUCK_SWEEP_EVERY_SECOND }),
          await startPromotionsBackend(sim, 'argocd', { knex, services: [recordingNotifications(sent)], promotions: STUCK_SWEEP_EVERY_SECOND }),
        ];
        sim.control.setApp(shop.app('test'), { health: 'Degraded' });
        await sim.control.reconcileNow();
        const ownStuck = () => sent.filter(n => n.payload.title.endsWith(`stuck in test (${shop.ref})`));
        await eventually(async () => (ownStuck().length >= 3 ? true : undefined), 60_000);

        const views = await Promise.all(Array.from({ length: 6 }, (_, i) => getLadder(replicas[i % 2], shop.ref)));
        expect(views.map(ladder => ladder.stages.find(stage => stage.name === 'test')?.stuck)).toEqual(Array(6).fill(true));
        await sweepsPassed(sim);

        expect(ownStuck().map(n => n.payload.title).sort()).toEqual([
          `cart is stuck in test (${shop.ref})`,
          `checkout is stuck in test (${shop.ref})`,
          `storefront is stuck in test (${shop.ref})`,
        ]);
      });
    });
  });
}
