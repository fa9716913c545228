import { mockCredentials } from '@backstage/backend-test-utils';
import { createBackendModule } from '@backstage/backend-plugin-api';
import type { RunningSim } from '@refplat/platform-sim';
import { Octokit } from '@octokit/rest';
import request from 'supertest';
import type { Ladder, Promotion, PromotionEvent } from '@refplat/plugin-promotions-common';
import { promotionsGuardsExtensionPoint } from '@refplat/plugin-promotions-node';
import { eventually, startPromotionsBackend } from '../__testUtils__/testBackend';
import { sharedSimBackend, TestProduct } from '../__testUtils__/sharedSimBackend';

type Server = Awaited<ReturnType<typeof startPromotionsBackend>>;

const asUser = (name: string) => mockCredentials.user.header(`user:default/${name}`);
const REPO = { owner: 'refplat', repo: 'platform' };

/** A day either side of now: the freeze is on whenever the test runs. */
function dateRangeAroundNow(): string {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  return `${day(-1)} – ${day(1)}`;
}

/** `user` requests a promotion of `product` (`body`: the request's, e.g. `{ toStage: 'test' }`). */
function requestPromotionOf(server: Server, product: TestProduct, body: object, user: string) {
  return request(server).post(`/api/promotions/products/${product.ref}/promotions`).set('Authorization', asUser(user)).send(body);
}

/** A promotion and its audit trail, as bob reads them. */
async function promotionDetailOf(server: Server, id: string) {
  const response = await request(server).get(`/api/promotions/promotions/${id}`).set('Authorization', asUser('bob'));
  return response.body as { promotion: Promotion; events: PromotionEvent[] };
}

/** The stages a test's change board currently refuses. */
const refusedByChangeBoard = new Set<string>();
/** The stages whose open promotions the board refuses at the Gate (it learned something after the request). */
const refusedAtMerge = new Set<string>();

/** An adopter's guard, added as they would: a backend module using the extension point. */
const changeBoardModule = createBackendModule({
  pluginId: 'promotions',
  moduleId: 'change-board',
  register(env) {
    env.registerInit({
      deps: { guards: promotionsGuardsExtensionPoint },
      async init({ guards }) {
        guards.addGuard({
          name: 'change-board',
          evaluate: async (promotion, context) =>
            refusedByChangeBoard.has(promotion.toStage) || (context.phase === 'gate' && refusedAtMerge.has(promotion.toStage))
              ? { verdict: 'block', reason: `The change board has not cleared ${promotion.toStage}` }
              : { verdict: 'allow', reason: 'Cleared by the change board' },
        });
      },
    });
  },
});

/**
 * Promotion guards and approval quorums (was guards.api.test.ts): each block a
 * backend configured its way on the file's simulator, and a Product of its own.
 */
export function guardsSuite() {
  describe('guards', () => {
    describe('promotion guards against the simulator', () => {
      // The file's simulator, a backend with the freezes and the change board, and a Product of the block's own, laid out as alpha/shop.
      const shared = sharedSimBackend({
        backend: () => ({
          promotions: {
            freezes: [
              { name: 'holiday-freeze', stages: ['test'], schedule: dateRangeAroundNow(), timezone: 'Europe/Berlin', reason: 'Holidays: nobody on call' },
              // Another Product's window: it must not freeze the block's Product's uat.
              { name: 'payments-audit', stages: ['uat'], products: ['beta/payments'], schedule: 'Mon 00:00 – Mon 00:00', reason: 'Audit' },
            ],
          },
          features: [changeBoardModule],
        }),
      });
      let sim: RunningSim;
      let server: Server;
      let github: Octokit;
      /** The block's Product: each test goes on from where the one before left it, as on the seeded one before. */
      let shop: TestProduct;

      beforeAll(async () => {
        ({ sim, server } = shared);
        github = new Octokit({ baseUrl: sim.githubApiUrl, auth: sim.tokens.github });
        shop = await shared.addProduct('alpha/shop');
      });

      const requestPromotion = (body: object, user: string) => requestPromotionOf(server, shop, body, user);
      const promotionDetail = (id: string) => promotionDetailOf(server, id);
      const mergedPromotion = (id: string) =>
        eventually(async () => {
          const { promotion } = await promotionDetail(id);
          return promotion.status === 'merged' ? promotion : undefined;
        }, 60_000);
      /** Until the ladder shows `stage` running its `service` healthy: a merge is done before its canary is. */
      const runsHealthy = (stage: string, service: string) =>
        eventually(async () => {
          const ladder: Ladder = (
            await request(server).get(`/api/promotions/products/${shop.ref}/ladder`).set('Authorization', asUser('bob'))
          ).body;
          return ladder.stages.find(candidate => candidate.name === stage)?.services[service]?.healthy ? true : undefined;
        }, 120_000);
      const headStatuses = async (pullNumber: number) => {
        const { data: pr } = await github.rest.pulls.get({ ...REPO, pull_number: pullNumber });
        return (await github.rest.repos.listCommitStatusesForRef({ ...REPO, ref: pr.head.sha })).data;
      };

      it('refuses a request into a frozen stage with 409, naming the window and its end, and shows the freeze on the ladder', async () => {
        const refused = await requestPromotion({ toStage: 'test', services: ['storefront'] }, 'bob');
        expect(refused.status).toBe(409);
        expect(refused.body.error.message).toMatch(
          /^Promotion into test refused by policy: freeze: test is frozen by holiday-freeze until \w{3} \d{1,2} \w{3} \d{4}, \d\d:\d\d [\w/]+: Holidays: nobody on call$/,
        );

        const ladder: Ladder = (
          await request(server).get(`/api/promotions/products/${shop.ref}/ladder`).set('Authorization', asUser('bob'))
        ).body;
        const test = ladder.stages.find(stage => stage.name === 'test')!;
        expect(test.freeze).toMatchObject({ name: 'holiday-freeze', reason: 'Holidays: nobody on call' });
        expect(Date.parse(test.freeze!.end)).toBeGreaterThan(Date.now());
        expect(test.guards).toEqual(
          expect.arrayContaining([expect.objectContaining({ guard: 'freeze', verdict: 'block' })]),
        );
        expect(ladder.stages.find(stage => stage.name === 'uat')!.freeze).toBeUndefined();
        const payments: Ladder = (
          await request(server).get('/api/promotions/products/beta/payments/ladder').set('Authorization', asUser('alice'))
        ).body;
        expect(payments.stages.find(stage => stage.name === 'uat')!.freeze).toMatchObject({ name: 'payments-audit' });
      });

      it("lets a release-approver override a freeze with a reason: it merges, and the override is on the PR and in the trail", async () => {
        const byDeveloper = await requestPromotion({ toStage: 'test', services: ['storefront'], override: { reason: 'please' } }, 'bob');
        expect(byDeveloper.status).toBe(403);
        const withoutReason = await requestPromotion({ toStage: 'test', services: ['storefront'], override: { reason: ' ' } }, 'alice');
        expect(withoutReason.status).toBe(400);

        const overridden = await requestPromotion(
          { toStage: 'test', services: ['storefront'], override: { reason: 'Checkout outage hotfix' } },
          'alice',
        );
        expect(overridden.status).toBe(201);
        const promotion: Promotion = overridden.body.promotion;
        await mergedPromotion(promotion.id);

        const { data: comments } = await github.rest.issues.listComments({ ...REPO, issue_number: promotion.pullRequest.number });
        expect(comments.map(comment => comment.body)).toEqual(
          expect.arrayContaining([expect.stringMatching(/Policy overridden by Alice Approver \(`alice`\) in Backstage: Checkout outage hotfix/)]),
        );
        expect(await headStatuses(promotion.pullRequest.number)).toEqual(
          expect.arrayContaining([
            expect.objectContaining({
              context: 'promotions/guard/freeze',
              state: 'success',
              description: 'Overridden by user:default/alice: Checkout outage hotfix',
            }),
          ]),
        );
        const { events } = await promotionDetail(promotion.id);
        expect(events).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ type: 'guards-overridden', actor: 'user:default/alice', detail: 'Checkout outage hotfix' }),
          ]),
        );
      });

      it("runs a module's guard: it refuses requests, holds an approved promotion with its own status on the PR, and releases it", async () => {
        const requested = await requestPromotion({ toStage: 'prod' }, 'bob');
        expect(requested.status).toBe(201);
        const promotion: Promotion = requested.body.promotion;
        expect(requested.body.guards).toEqual([
          { guard: 'freeze', verdict: 'allow', reason: 'prod is not frozen' },
          { guard: 'change-board', verdict: 'allow', reason: 'Cleared by the change board' },
        ]);

        refusedByChangeBoard.add('prod');
        refusedByChangeBoard.add('uat');
        // The freeze override above brought storefront into test: until test runs it
        // healthy, a request into uat is refused for that before any guard is asked.
        await runsHealthy('test', 'storefront');
        const refused = await requestPromotion({ toStage: 'uat' }, 'bob');
        expect(refused.status).toBe(409);
        expect(refused.body.error.message).toMatch(/change-board: The change board has not cleared uat/);

        const approved = await request(server)
          .post(`/api/promotions/promotions/${promotion.id}/approve`)
          .set('Authorization', asUser('carol'));
        expect(approved.status).toBe(200);
        await eventually(async () => {
          const statuses = await headStatuses(promotion.pullRequest.number);
          const board = statuses.find(status => status.context === 'promotions/guard/change-board');
          return board?.state === 'failure' ? board : undefined;
        }, 30_000);
        expect((await promotionDetail(promotion.id)).promotion.status).toBe('approved');

        refusedByChangeBoard.clear();
        await mergedPromotion(promotion.id);
        const statuses = await headStatuses(promotion.pullRequest.number);
        // Newest first: the last word on the head is the board's clearance.
        expect(statuses.find(status => status.context === 'promotions/guard/change-board')).toMatchObject({
          state: 'success',
          description: 'Cleared by the change board',
        });
        const { events } = await promotionDetail(promotion.id);
        expect(events.filter(event => event.type === 'guard-verdict').map(event => event.detail)).toEqual(
          expect.arrayContaining([
            expect.stringMatching(/change-board: block: The change board has not cleared prod/),
            expect.stringMatching(/change-board: allow: Cleared by the change board/),
          ]),
        );
      });

      it('lets a release-approver override the block on a promotion already open: it merges, with the override on the PR and in the trail', async () => {
        refusedAtMerge.add('uat');
        const requested = await requestPromotion({ toStage: 'uat' }, 'bob');
        expect(requested.status).toBe(201);
        const promotion: Promotion = requested.body.promotion;
        await eventually(async () => {
          const statuses = await headStatuses(promotion.pullRequest.number);
          const board = statuses.find(status => status.context === 'promotions/guard/change-board');
          return board?.state === 'failure' ? board : undefined;
        }, 60_000);
        const override = (user: string, body: object) =>
          request(server).post(`/api/promotions/promotions/${promotion.id}/override`).set('Authorization', asUser(user)).send(body);

        expect((await override('bob', { reason: 'please' })).status).toBe(403);
        const withoutReason = await override('alice', { reason: ' ' });
        expect(withoutReason.status).toBe(400);
        expect(withoutReason.body.error.message).toMatch(/request\/body\/reason must match pattern/);
        expect((await promotionDetail(promotion.id)).promotion.status).toBe('open');

        const overridden = await override('alice', { reason: 'CAB cleared it by phone' });
        expect(overridden.status).toBe(200);
        expect(overridden.body.promotion.guardOverride).toEqual({ by: 'user:default/alice', reason: 'CAB cleared it by phone' });
        await mergedPromotion(promotion.id);
        expect(await headStatuses(promotion.pullRequest.number)).toEqual(
          expect.arrayContaining([
            expect.objectContaining({
              context: 'promotions/guard/change-board',
              state: 'success',
              description: 'Overridden by user:default/alice: CAB cleared it by phone',
            }),
          ]),
        );
        const { data: comments } = await github.rest.issues.listComments({ ...REPO, issue_number: promotion.pullRequest.number });
        expect(comments.map(comment => comment.body)).toEqual(
          expect.arrayContaining([expect.stringMatching(/Policy overridden by Alice Approver \(`alice`\) in Backstage: CAB cleared it by phone/)]),
        );
        const { events } = await promotionDetail(promotion.id);
        expect(events).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ type: 'guards-overridden', actor: 'user:default/alice', detail: 'CAB cleared it by phone' }),
          ]),
        );

        // Once it merged there is nothing left to override.
        const late = await override('alice', { reason: 'again' });
        expect(late.status).toBe(409);
        expect(late.body.error.message).toMatch(/is merged: only an open promotion's policy can be overridden/);
        refusedAtMerge.clear();
      });
    });

    describe('the commit statuses of a promotion the Gate merges at once', () => {
      /** A freeze of prod only: every promotion below it is judged by a guard that allows it. */
      const prodFreeze = () => ({
        promotions: {
          freezes: [{ name: 'prod-freeze', stages: ['prod'], schedule: dateRangeAroundNow(), timezone: 'UTC', reason: 'Quiet week' }],
        },
      });

      /** Requests test for a Product of its own, waits for the Gate's merge, and reads the statuses on the PR head. */
      async function mergedAtOnce(shared: ReturnType<typeof sharedSimBackend>) {
        const { sim, server } = shared;
        const shop = await shared.addProduct('alpha/shop');
        const github = new Octokit({ baseUrl: sim.githubApiUrl, auth: sim.tokens.github });
        const requested = await requestPromotionOf(server, shop, { toStage: 'test' }, 'bob');
        expect(requested.status).toBe(201);
        const promotion: Promotion = requested.body.promotion;
        const detail = () => promotionDetailOf(server, promotion.id);
        const merged = await eventually(async () => ((await detail()).promotion.status === 'merged' ? detail() : undefined), 60_000);
        const { data: pr } = await github.rest.pulls.get({ ...REPO, pull_number: promotion.pullRequest.number });
        const { data: statuses } = await github.rest.repos.listCommitStatusesForRef({ ...REPO, ref: pr.head.sha });
        return { shop, github, merged, statuses };
      }

      describe('on a repository with no required status checks', () => {
        const shared = sharedSimBackend({ backend: prodFreeze });

        it('writes none (issue 48: each status is one of GitHub\'s content writes): the guard\'s verdict is in the trail, and the branch is deleted', async () => {
          const { shop, github, merged, statuses } = await mergedAtOnce(shared);
          expect(statuses).toEqual([]);
          expect(merged.events.map(event => event.type)).toEqual(expect.arrayContaining(['guard-verdict', 'merged']));
          await eventually(async () => {
            const { data: refs } = await github.rest.git.listMatchingRefs({ ...REPO, ref: `heads/${shop.branchPrefix}` });
            return refs.length === 0 || undefined;
          }, 30_000);
        });
      });

      describe("on a repository whose main requires promotions/health (branch protection)", () => {
        const shared = sharedSimBackend({ sim: { requiredStatusChecks: ['promotions/health'] }, backend: prodFreeze });

        it('writes that one status before merging, and not the guard\'s nobody requires: GitHub would refuse the merge without it', async () => {
          const { merged, statuses } = await mergedAtOnce(shared);
          expect(statuses.map(status => `${status.context} ${status.state}`)).toEqual(['promotions/health success']);
          expect(merged.promotion.status).toBe('merged');
        });
      });
    });

    describe('an approval quorum against the simulator', () => {
      // The file's simulator, a backend asking two approvals at prod, and a Product of the block's own.
      const shared = sharedSimBackend({ backend: { promotions: { approval: { quorum: { prod: 2 } } } } });
      let sim: RunningSim;
      let server: Server;
      let github: Octokit;
      let shop: TestProduct;

      beforeAll(async () => {
        ({ sim, server } = shared);
        github = new Octokit({ baseUrl: sim.githubApiUrl, auth: sim.tokens.github });
        shop = await shared.addProduct('alpha/shop');
      });

      const approve = (id: string, user: string) =>
        request(server).post(`/api/promotions/promotions/${id}/approve`).set('Authorization', asUser(user));
      const headStatus = async (pullNumber: number, context: string) => {
        const { data: pr } = await github.rest.pulls.get({ ...REPO, pull_number: pullNumber });
        const { data: statuses } = await github.rest.repos.listCommitStatusesForRef({ ...REPO, ref: pr.head.sha });
        return statuses.find(status => status.context === context);
      };

      it('keeps a quorum-2 prod promotion waiting after alice approves, and merges it after carol does', async () => {
        const requested = await requestPromotionOf(server, shop, { toStage: 'prod' }, 'bob');
        expect(requested.status).toBe(201);
        const promotion: Promotion = requested.body.promotion;

        const byAlice = await approve(promotion.id, 'alice');
        expect(byAlice.status).toBe(200);
        expect(byAlice.body.promotion).toMatchObject({
          status: 'awaiting-approval',
          statusReason: '1 of 2 approvals (Alice Approver); waiting for another release-approver',
        });
        expect(await headStatus(promotion.pullRequest.number, 'promotions/approval')).toMatchObject({
          state: 'pending',
          description: '1 of 2 approvals',
        });
        expect((await approve(promotion.id, 'alice')).status).toBe(409);
        // The Gate has looked at it (the source's health is on the head) and still waits.
        await eventually(async () => (await headStatus(promotion.pullRequest.number, 'promotions/health'))?.state === 'success' || undefined, 30_000);
        expect((await promotionDetailOf(server, promotion.id)).promotion.status).toBe('awaiting-approval');

        const byCarol = await approve(promotion.id, 'carol');
        expect(byCarol.status).toBe(200);
        expect(byCarol.body.promotion.approvedBy).toBe('user:default/alice, user:default/carol');
        await eventually(async () => {
          return (await promotionDetailOf(server, promotion.id)).promotion.status === 'merged' || undefined;
        }, 60_000);
        expect(await headStatus(promotion.pullRequest.number, 'promotions/approval')).toMatchObject({
          state: 'success',
          description: 'Approved by Alice Approver, Carol Checker (2 of 2)',
        });
      });
    });
  });
}
