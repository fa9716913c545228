import { mockCredentials } from '@backstage/backend-test-utils';
import { createBackendModule } from '@backstage/backend-plugin-api';
import request from 'supertest';
import type { Ladder, Promotion, PromotionEvent } from '@refplat/plugin-promotions-common';
import { promotionsGuardsExtensionPoint } from '@refplat/plugin-promotions-node';
import { FakesBackend, fakesBackendForBlock } from '../__testUtils__/fakesBackend';
import { eventually } from '../__testUtils__/testBackend';

type Product = ReturnType<FakesBackend['addProduct']>;

const asUser = (name: string) => mockCredentials.user.header(`user:default/${name}`);

/** A day either side of now: the freeze is on whenever the test runs. */
function dateRangeAroundNow(): string {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  return `${day(-1)} – ${day(1)}`;
}

/** `team/product stage`: what the change board refuses, per Product, so that no test's refusal reaches another's. */
const boardKey = (promotion: { team: string; product: string }, stage: string) => `${promotion.team}/${promotion.product} ${stage}`;
/** The Products' stages the change board currently refuses. */
const refusedByChangeBoard = new Set<string>();
/** The Products' stages whose open promotions the board refuses at the Gate (it learned something after the request). */
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
          evaluate: async (promotion, context) => {
            const key = boardKey(promotion, promotion.toStage);
            return refusedByChangeBoard.has(key) || (context.phase === 'gate' && refusedAtMerge.has(key))
              ? { verdict: 'block', reason: `The change board has not cleared ${promotion.toStage}` }
              : { verdict: 'allow', reason: 'Cleared by the change board' };
          },
        });
      },
    });
  },
});

/** The calls a test makes on one backend, as bob and the others would. */
function clientOf(world: FakesBackend) {
  const { server, repo } = world;
  const detail = async (id: string) => {
    const response = await request(server).get(`/api/promotions/promotions/${id}`).set('Authorization', asUser('bob'));
    return response.body as { promotion: Promotion; events: PromotionEvent[] };
  };
  const headOf = (pullNumber: number) => repo.pullRequests().find(pr => pr.number === pullNumber)!.headSha;
  const requestPromotion = (product: Product, body: object, user: string) =>
    request(server).post(`/api/promotions/products/${product.ref}/promotions`).set('Authorization', asUser(user)).send(body);
  return {
    requestPromotion,
    /**
     * The Product's promotion branches and PRs: what a request writes first. (Other tests'
     * promotions on the block's backend have the Gate writing on theirs meanwhile.)
     */
    promotionWrites: async (product: Product) => {
      return {
        branches: (await repo.listBranches(product.branchPrefix)).map(branch => branch.name),
        pulls: repo.pullRequests().filter(pr => pr.headRef.startsWith(product.branchPrefix)).map(pr => pr.headRef),
      };
    },
    /** bob's request of prod for a new Product of the test's own, which opens its PR. */
    openProd: async () => {
      const shop = world.addProduct('alpha/shop');
      const requested = await requestPromotion(shop, { toStage: 'prod' }, 'bob');
      expect(requested.status).toBe(201);
      return { shop, promotion: requested.body.promotion as Promotion, guards: requested.body.guards };
    },
    ladder: async (ref: string, user = 'bob'): Promise<Ladder> =>
      (await request(server).get(`/api/promotions/products/${ref}/ladder`).set('Authorization', asUser(user))).body,
    detail,
    approve: (id: string, user: string) => request(server).post(`/api/promotions/promotions/${id}/approve`).set('Authorization', asUser(user)),
    override: (id: string, user: string, body: object) =>
      request(server).post(`/api/promotions/promotions/${id}/override`).set('Authorization', asUser(user)).send(body),
    merged: (id: string) => eventually(async () => ((await detail(id)).promotion.status === 'merged' || undefined), 30_000),
    /** The latest status of each context on the PR's head, as GitHub's combined status shows it. */
    headStatuses: (pullNumber: number) => repo.latestStatusesOf(headOf(pullNumber)),
    /** Every status written on the PR's head, oldest first. */
    allHeadStatuses: (pullNumber: number) => repo.statusesOf(headOf(pullNumber)),
    comments: (pullNumber: number) => repo.commentsOn(pullNumber),
    /** Until the board's status on the PR's head is `state`. */
    boardStatusIs: (pullNumber: number, state: 'failure' | 'success') =>
      eventually(async () => (repo.latestStatusesOf(headOf(pullNumber))['promotions/guard/change-board']?.state === state) || undefined, 30_000),
  };
}

/**
 * Promotion guards and approval quorums on the in-memory fakes through the composition root
 * (issue 46; these ran on the simulator before): each block a backend configured its way, each
 * test a Product of its own, so the tests hold in any order.
 */
describe('promotion guards', () => {
  const handle = fakesBackendForBlock({
    promotions: {
      freezes: [
        { name: 'holiday-freeze', stages: ['test'], schedule: dateRangeAroundNow(), timezone: 'Europe/Berlin', reason: 'Holidays: nobody on call' },
        // Another Product's window: it must not freeze the test's Product's uat.
        { name: 'payments-audit', stages: ['uat'], products: ['beta/payments'], schedule: 'Mon 00:00 – Mon 00:00', reason: 'Audit' },
      ],
    },
    features: [changeBoardModule],
  });

  afterEach(() => {
    refusedByChangeBoard.clear();
    refusedAtMerge.clear();
  });

  it('refuses a request into a frozen stage with 409, naming the window and its end, writes nothing, and shows the freeze on the ladder', async () => {
    const { world } = handle;
    const api = clientOf(world);
    const shop = world.addProduct('alpha/shop');
    const refused = await api.requestPromotion(shop, { toStage: 'test', services: ['storefront'] }, 'bob');
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(
      /^Promotion into test refused by policy: freeze: test is frozen by holiday-freeze until \w{3} \d{1,2} \w{3} \d{4}, \d\d:\d\d [\w/]+: Holidays: nobody on call$/,
    );
    expect(await api.promotionWrites(shop)).toEqual({ branches: [], pulls: [] });

    const ladder = await api.ladder(shop.ref);
    const test = ladder.stages.find(stage => stage.name === 'test')!;
    expect(test.freeze).toMatchObject({ name: 'holiday-freeze', reason: 'Holidays: nobody on call' });
    expect(Date.parse(test.freeze!.end)).toBeGreaterThan(Date.now());
    expect(test.guards).toEqual(expect.arrayContaining([expect.objectContaining({ guard: 'freeze', verdict: 'block' })]));
    expect(ladder.stages.find(stage => stage.name === 'uat')!.freeze).toBeUndefined();
    const payments = await api.ladder('beta/payments', 'alice');
    expect(payments.stages.find(stage => stage.name === 'uat')!.freeze).toMatchObject({ name: 'payments-audit' });
  });

  it('lets a release-approver override a freeze with a reason: it merges, and the override is on the PR and in the trail', async () => {
    const { world } = handle;
    const api = clientOf(world);
    const shop = world.addProduct('alpha/shop');
    const body = (reason: string) => ({ toStage: 'test', services: ['storefront'], override: { reason } });
    expect((await api.requestPromotion(shop, body('please'), 'bob')).status).toBe(403);
    expect((await api.requestPromotion(shop, body(' '), 'alice')).status).toBe(400);

    const overridden = await api.requestPromotion(shop, body('Checkout outage hotfix'), 'alice');
    expect(overridden.status).toBe(201);
    const promotion: Promotion = overridden.body.promotion;
    await api.merged(promotion.id);

    expect(api.comments(promotion.pullRequest.number)).toEqual(
      expect.arrayContaining([expect.stringMatching(/Policy overridden by Alice Approver \(`alice`\) in Backstage: Checkout outage hotfix/)]),
    );
    expect(api.headStatuses(promotion.pullRequest.number)['promotions/guard/freeze']).toMatchObject({
      state: 'success',
      description: 'Overridden by user:default/alice: Checkout outage hotfix',
    });
    const { events } = await api.detail(promotion.id);
    expect(events).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'guards-overridden', actor: 'user:default/alice', detail: 'Checkout outage hotfix' })]),
    );
  });

  it("runs a module's guard: it refuses requests, holds an approved promotion with its own status on the PR, and releases it", async () => {
    const { world } = handle;
    const api = clientOf(world);
    const { shop, promotion, guards } = await api.openProd();
    expect(guards).toEqual([
      { guard: 'freeze', verdict: 'allow', reason: 'prod is not frozen' },
      { guard: 'change-board', verdict: 'allow', reason: 'Cleared by the change board' },
    ]);

    refusedByChangeBoard.add(boardKey(shop, 'prod'));
    refusedByChangeBoard.add(boardKey(shop, 'uat'));
    const before = await api.promotionWrites(shop);
    const refused = await api.requestPromotion(shop, { toStage: 'uat' }, 'bob');
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/change-board: The change board has not cleared uat/);
    expect(await api.promotionWrites(shop)).toEqual(before);

    expect((await api.approve(promotion.id, 'carol')).status).toBe(200);
    await api.boardStatusIs(promotion.pullRequest.number, 'failure');
    expect((await api.detail(promotion.id)).promotion.status).toBe('approved');

    refusedByChangeBoard.clear();
    await api.merged(promotion.id);
    // The last word on the head is the board's clearance.
    expect(api.headStatuses(promotion.pullRequest.number)['promotions/guard/change-board']).toMatchObject({
      state: 'success',
      description: 'Cleared by the change board',
    });
    const { events } = await api.detail(promotion.id);
    expect(events.filter(event => event.type === 'guard-verdict').map(event => event.detail)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/change-board: block: The change board has not cleared prod/),
        expect.stringMatching(/change-board: allow: Cleared by the change board/),
      ]),
    );
  });

  it('lets a release-approver override the block on a promotion already open: it merges, with the override on the PR and in the trail', async () => {
    const { world } = handle;
    const api = clientOf(world);
    const shop = world.addProduct('alpha/shop');
    refusedAtMerge.add(boardKey(shop, 'uat'));
    const requested = await api.requestPromotion(shop, { toStage: 'uat' }, 'bob');
    expect(requested.status).toBe(201);
    const promotion: Promotion = requested.body.promotion;
    await api.boardStatusIs(promotion.pullRequest.number, 'failure');

    expect((await api.override(promotion.id, 'bob', { reason: 'please' })).status).toBe(403);
    const withoutReason = await api.override(promotion.id, 'alice', { reason: ' ' });
    expect(withoutReason.status).toBe(400);
    expect(withoutReason.body.error.message).toMatch(/request\/body\/reason must match pattern/);
    expect((await api.detail(promotion.id)).promotion.status).toBe('open');

    const overridden = await api.override(promotion.id, 'alice', { reason: 'CAB cleared it by phone' });
    expect(overridden.status).toBe(200);
    expect(overridden.body.promotion.guardOverride).toEqual({ by: 'user:default/alice', reason: 'CAB cleared it by phone' });
    await api.merged(promotion.id);
    expect(api.headStatuses(promotion.pullRequest.number)['promotions/guard/change-board']).toMatchObject({
      state: 'success',
      description: 'Overridden by user:default/alice: CAB cleared it by phone',
    });
    expect(api.comments(promotion.pullRequest.number)).toEqual(
      expect.arrayContaining([expect.stringMatching(/Policy overridden by Alice Approver \(`alice`\) in Backstage: CAB cleared it by phone/)]),
    );
    const { events } = await api.detail(promotion.id);
    expect(events).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'guards-overridden', actor: 'user:default/alice', detail: 'CAB cleared it by phone' })]),
    );

    // Once it merged there is nothing left to override.
    const late = await api.override(promotion.id, 'alice', { reason: 'again' });
    expect(late.status).toBe(409);
    expect(late.body.error.message).toMatch(/is merged: only an open promotion's policy can be overridden/);
  });
});

describe('the commit statuses of a promotion the Gate merges at once', () => {
  /** A freeze of prod only: every promotion below it is judged by a guard that allows it. */
  const prodFreeze = {
    freezes: [{ name: 'prod-freeze', stages: ['prod'], schedule: dateRangeAroundNow(), timezone: 'UTC', reason: 'Quiet week' }],
  };

  /** Requests test for a Product of its own, waits for the Gate's merge, and reads the statuses on the PR head. */
  async function mergedAtOnce(world: FakesBackend) {
    const api = clientOf(world);
    const shop = world.addProduct('alpha/shop');
    const requested = await api.requestPromotion(shop, { toStage: 'test' }, 'bob');
    expect(requested.status).toBe(201);
    const promotion: Promotion = requested.body.promotion;
    await api.merged(promotion.id);
    return { shop, merged: await api.detail(promotion.id), statuses: api.allHeadStatuses(promotion.pullRequest.number) };
  }

  describe('on a repository with no required status checks', () => {
    const handle = fakesBackendForBlock({ promotions: prodFreeze });

    it("writes none (issue 48: each status is one of GitHub's content writes): the guard's verdict is in the trail, and the branch is deleted", async () => {
      const { shop, merged, statuses } = await mergedAtOnce(handle.world);
      expect(statuses).toEqual([]);
      expect(merged.events.map(event => event.type)).toEqual(expect.arrayContaining(['guard-verdict', 'merged']));
      await eventually(async () => (await handle.world.repo.listBranches(shop.branchPrefix)).length === 0 || undefined, 30_000);
    });
  });

  describe('on a repository whose main requires promotions/health (branch protection)', () => {
    const handle = fakesBackendForBlock({ promotions: prodFreeze });

    it("writes that one status before merging, and not the guard's nobody requires: GitHub would refuse the merge without it", async () => {
      handle.world.repo.requireStatusChecks(['promotions/health']);
      const { merged, statuses } = await mergedAtOnce(handle.world);
      expect(statuses.map(status => `${status.context} ${status.state}`)).toEqual(['promotions/health success']);
      expect(merged.promotion.status).toBe('merged');
    });
  });
});

describe('an approval quorum', () => {
  const handle = fakesBackendForBlock({ promotions: { approval: { quorum: { prod: 2 } } } });

  it('keeps a quorum-2 prod promotion waiting after alice approves, and merges it after carol does', async () => {
    const api = clientOf(handle.world);
    const { promotion } = await api.openProd();

    const byAlice = await api.approve(promotion.id, 'alice');
    expect(byAlice.status).toBe(200);
    expect(byAlice.body.promotion).toMatchObject({
      status: 'awaiting-approval',
      statusReason: '1 of 2 approvals (Alice Approver); waiting for another release-approver',
    });
    expect(api.headStatuses(promotion.pullRequest.number)['promotions/approval']).toMatchObject({ state: 'pending', description: '1 of 2 approvals' });
    expect((await api.approve(promotion.id, 'alice')).status).toBe(409);
    // The Gate has looked at it (the source's health is on the head) and still waits.
    await eventually(async () => api.headStatuses(promotion.pullRequest.number)['promotions/health']?.state === 'success' || undefined, 30_000);
    expect((await api.detail(promotion.id)).promotion.status).toBe('awaiting-approval');

    const byCarol = await api.approve(promotion.id, 'carol');
    expect(byCarol.status).toBe(200);
    expect(byCarol.body.promotion.approvedBy).toBe('user:default/alice, user:default/carol');
    await api.merged(promotion.id);
    expect(api.headStatuses(promotion.pullRequest.number)['promotions/approval']).toMatchObject({
      state: 'success',
      description: 'Approved by Alice Approver, Carol Checker (2 of 2)',
    });
  });
});
