import { createServiceFactory } from '@backstage/backend-plugin-api';
import { mockCredentials } from '@backstage/backend-test-utils';
import { Octokit } from '@octokit/rest';
import request from 'supertest';
import { signalsServiceRef } from '@backstage/plugin-signals-node';
import type { RunningSim } from '@refplat/platform-sim';
import { eventually, HealthSourceKind, startPromotionsBackend } from '../__testUtils__/testBackend';
import { getLadder } from '../__testUtils__/ladderViews';
import { sharedSimBackend, TestProduct } from '../__testUtils__/sharedSimBackend';

/** Long enough that a fresh ladder after a health change can only come from the stream's forget. */
const LONG_TTL = { minutes: 10 };
const VIEWERS = 5;

/**
 * The health stream: one stream per backend, its events as signals, and the Gate moved on by
 * them. Each block has a backend of its own (the only one on the simulator while it runs, so
 * the streams and lists counted are its own) and Products of its own on the file's simulator.
 */
export function healthStreamSuite(): void {
  describe('the health stream', () => {
    describe.each<[HealthSourceKind, 'argocd' | 'kubernetes']>([
      ['argocd', 'argocd'],
      ['kubernetes', 'kubernetes'],
    ])('health events from the %s source', (healthSource, target) => {
      const published: Array<{ channel: string; message: any }> = [];
      const shared = sharedSimBackend({
        healthSource,
        backend: {
          cacheTtl: LONG_TTL,
          healthStream: { enabled: true },
          services: [
            createServiceFactory({
              service: signalsServiceRef,
              deps: {},
              factory: () => ({
                publish: async (signal: any) => {
                  published.push(signal);
                },
              }),
            }),
          ],
        },
      });
      let sim: RunningSim;
      let server: Awaited<ReturnType<typeof startPromotionsBackend>>;
      /** The Products whose Applications the tests change: the block's own. */
      let shop: TestProduct;
      let payments: TestProduct;

      const signalsOf = (product: string) =>
        published.filter(signal => signal.channel === `promotions:${product}`);
      const openStreams = () => sim.control.openStreams()[target];
      /** A list of Applications: what a ladder view (or a re-list) asks the source. */
      const applicationLists = () =>
        sim.control
          .getRequests(target)
          .filter(call => /\/applications$/.test(call.path) && !/watch=/.test(call.query));

      beforeAll(async () => {
        ({ sim, server } = shared);
        shop = await shared.addProduct('alpha/shop');
        payments = await shared.addProduct('beta/payments');
      });

      it(`keeps one stream for ${VIEWERS} viewers`, async () => {
        await Promise.all(Array.from({ length: VIEWERS }, () => getLadder(server, shop.ref)));
        await eventually(async () => (openStreams() === 1 ? true : undefined));
        await Promise.all(Array.from({ length: VIEWERS }, () => getLadder(server, shop.ref)));
        expect(openStreams()).toBe(1);
      });

      it('signals the Product once for a burst of health and sync changes, without a ladder view', async () => {
        const test = (await getLadder(server, shop.ref)).stages.find(stage => stage.name === 'test')!;
        expect(test.verdict).toBe('healthy');
        sim.control.clearRequests();
        published.length = 0;

        sim.control.setApp(shop.app('test'), { health: 'Degraded' });
        sim.control.setApp(shop.app('test'), { sync: 'OutOfSync' });
        await eventually(async () => (signalsOf(shop.ref).length > 0 ? true : undefined));
        // Another Product's signal comes after the first one's debounce window closed.
        sim.control.setApp(payments.app('test'), { health: 'Degraded' });
        await eventually(async () => (signalsOf(payments.ref).length > 0 ? true : undefined));

        expect(signalsOf(shop.ref)).toEqual([
          { channel: `promotions:${shop.ref}`, message: { product: shop.ref, what: 'health' }, recipients: { type: 'broadcast' } },
        ]);
        expect(applicationLists()).toHaveLength(0);
        // The coalesced listing was dropped: the next view sees the change within the TTL.
        const after = (await getLadder(server, shop.ref)).stages.find(stage => stage.name === 'test')!;
        expect(after.verdict).not.toBe('healthy');
        expect(applicationLists()).toHaveLength(1);
      });

      it('reconnects after the server drops the stream, and signals again', async () => {
        // A view opens the stream, whichever test ran before.
        await getLadder(server, shop.ref);
        await eventually(async () => (openStreams() === 1 ? true : undefined));
        sim.control.clearRequests();
        published.length = 0;
        expect(sim.control.dropStreams()).toBe(1);
        await eventually(async () => (openStreams() === 1 ? true : undefined));

        // A change of its own (uat: the other test changes test), undone before the next test.
        sim.control.setApp(shop.app('uat'), { health: 'Degraded' });
        await eventually(async () => (signalsOf(shop.ref).length > 0 ? true : undefined));
        expect(openStreams()).toBe(1);
        published.length = 0;
        sim.control.setApp(shop.app('uat'), { clear: true });
        await eventually(async () => (signalsOf(shop.ref).length > 0 ? true : undefined));
      });
    });

    describe('a promotion waiting on the stage below', () => {
      // The Gate's own run is hourly here: only the health event can move the promotion on.
      const shared = sharedSimBackend({
        backend: {
          healthStream: { enabled: true },
          gate: { frequency: { hours: 1 } },
        },
      });
      let sim: RunningSim;
      let server: Awaited<ReturnType<typeof startPromotionsBackend>>;
      let github: Octokit;
      /** The Product promoted and made unhealthy: the block's own. */
      let shop: TestProduct;
      const repo = { owner: 'refplat', repo: 'platform' };

      beforeAll(async () => {
        ({ sim, server } = shared);
        shop = await shared.addProduct('alpha/shop');
        github = new Octokit({ baseUrl: sim.githubApiUrl, auth: sim.tokens.github });
        await eventually(async () => (sim.control.openStreams().argocd === 1 ? true : undefined));
      });

      const healthStatuses = async (sha: string) =>
        (await github.rest.repos.listCommitStatusesForRef({ ...repo, ref: sha })).data
          .filter(status => status.context === 'promotions/health')
          .map(status => status.state);

      it('is merged by the Gate on the health event that makes the source healthy again', async () => {
        // GitHub refuses merges until the source turns unhealthy, so the promotion waits: the
        // check after the request, and any a health event asks for meanwhile, cannot merge it.
        sim.control.addFault({ target: 'github', method: 'PUT', path: '/merge', status: 502, count: 1_000 });
        const refusedMerges = (pullNumber: number) =>
          sim.control
            .getRequests('github')
            .filter(call => call.method === 'PUT' && call.path.endsWith(`/pulls/${pullNumber}/merge`) && call.status === 502);
        const response = await request(server)
          .post(`/api/promotions/products/${shop.ref}/promotions`)
          .set('Authorization', mockCredentials.user.header('user:default/bob'))
          .send({ toStage: 'test', services: ['storefront'] });
        expect(response.status).toBe(201);
        const { number } = response.body.promotion.pullRequest;
        const { data: pr } = await github.rest.pulls.get({ ...repo, pull_number: number });
        await eventually(async () => (refusedMerges(number).length > 0 ? true : undefined));

        sim.control.setApp(shop.app('dev'), { health: 'Degraded' });
        await eventually(async () => ((await healthStatuses(pr.head.sha)).includes('failure') ? true : undefined), 60_000);
        expect((await github.rest.pulls.get({ ...repo, pull_number: number })).data.merged).toBe(false);

        // GitHub merges again; only the health event can tell the Gate the source is healthy.
        sim.control.clearFaults();
        sim.control.setApp(shop.app('dev'), { clear: true });
        await eventually(
          async () => ((await github.rest.pulls.get({ ...repo, pull_number: number })).data.merged ? true : undefined),
          60_000,
        );
        expect(await healthStatuses(pr.head.sha)).toContain('success');
      });
    });
  });
}
