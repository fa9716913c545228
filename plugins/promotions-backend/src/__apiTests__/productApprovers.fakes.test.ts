import { TestDatabases } from '@backstage/backend-test-utils';
import { actionsRegistryServiceFactory } from '@backstage/backend-defaults/alpha';
import request from 'supertest';
import type { ApprovalItem, Promotion } from '@refplat/plugin-promotions-common';
import { asUser, invokeAction } from '../__testUtils__/actionsOverHttp';
import { FakesBackend, PromotionsOnFakesOptions, startPromotionsBackendOnFakes } from '../__testUtils__/fakesBackend';
import { eventually } from '../__testUtils__/testBackend';

type Server = FakesBackend['server'];
type TestProduct = { team: string; product: string; ref: string };

/**
 * In the test catalog, alpha/shop's System names `group:default/shop-release` (erin) as its approvers;
 * the Products added like it (the suites' own) have the same annotations.
 */
const QUORUM_2 = { 'alpha/shop': { 'refplat.org/approval-quorum': 'prod=2' } };

const requestProd = async (server: Server, shop: TestProduct): Promise<Promotion> => {
  const response = await request(server)
    .post(`/api/promotions/products/${shop.ref}/promotions`)
    .set('Authorization', asUser('bob'))
    .send({ toStage: 'prod' });
  expect(response.status).toBe(201);
  expect(response.body.promotion.status).toBe('awaiting-approval');
  return response.body.promotion;
};
const approve = (server: Server, id: string, user: string) =>
  request(server).post(`/api/promotions/promotions/${id}/approve`).set('Authorization', asUser(user));
/** The ids in a user's inbox; given a Product, only its own. */
const inbox = async (server: Server, user: string, only?: TestProduct): Promise<string[]> => {
  const response = await request(server).get('/api/promotions/approvals').set('Authorization', asUser(user));
  expect(response.status).toBe(200);
  return (response.body.items as ApprovalItem[])
    .filter(item => !only || (item.team === only.team && item.product === only.product))
    .map(promotion => promotion.id);
};
const detail = async (server: Server, id: string) =>
  (await request(server).get(`/api/promotions/promotions/${id}`).set('Authorization', asUser('bob'))).body;
/**
 * Until the promotion merged: longer than the Gate task's timeout (1 minute), after which a
 * replica whose Gate run stalled (an upstream call on a loaded machine) gives the task to the other.
 */
const mergedEventually = (server: Server, id: string) =>
  eventually(async () => ((await detail(server, id)).promotion.status === 'merged' ? true : undefined), 120_000);

/*
 * A Product's own approvers, on the in-memory fakes through the composition root (issue 46):
 * each block promotes a Product of its own (like alpha/shop, so its System names shop-release)
 * with a backend configured its way; two replicas on one database share one fake platform.
 */

/** A backend on fakes for the enclosing block, and a Product of its own; stopped when the block ends. */
function backendForBlock(options: PromotionsOnFakesOptions) {
  const block = {} as { world: FakesBackend; server: Server; shop: TestProduct };
  beforeAll(async () => {
    block.world = await startPromotionsBackendOnFakes(options);
    block.server = block.world.server;
    block.shop = block.world.addProduct('alpha/shop');
  });
  afterAll(async () => {
    await block.world?.stop();
  });
  return block;
}

describe("a Product's own approvers, replacing the global ones", () => {
  const block = backendForBlock({
    // No Gate: its inbox holds only what this block requested.
    gate: { enabled: false },
    promotions: { approval: { productApprovers: 'replace' } },
    // The real registry, so the actions answer over HTTP as for an agent.
    services: [actionsRegistryServiceFactory],
  });
  let server: Server;
  let shop: TestProduct;

  beforeAll(() => {
    ({ server, shop } = block);
  });

  const invoke = (action: string, user: string, input: object) => invokeAction(server, action, user, input);
  const awaitingByAction = async (user: string): Promise<string[]> =>
    (await invoke('list-awaiting-approval', user, {})).body.output.items.map((p: { id: string }) => p.id);

  it("lets the shop's release captain approve, and refuses the global approver everywhere", async () => {
    const promotion = await requestProd(server, shop);

    const ladder = await request(server).get(`/api/promotions/products/${shop.ref}/ladder`).set('Authorization', asUser('bob'));
    expect(ladder.body.approvers).toEqual(['group:default/shop-release']);
    expect(await inbox(server, 'erin')).toEqual([promotion.id]);
    expect(await inbox(server, 'alice')).toEqual([]);

    expect(await awaitingByAction('erin')).toEqual([promotion.id]);
    expect(await awaitingByAction('alice')).toEqual([]);

    const byAlice = await approve(server, promotion.id, 'alice');
    expect(byAlice.status).toBe(403);
    expect(byAlice.body.error.message).toMatch(
      /Alice Approver is not a release-approver: approvals need membership of shop-release/,
    );
    const byAliceAction = await invoke('approve-promotion', 'alice', { id: promotion.id });
    expect(byAliceAction.status).toBe(403);
    expect(byAliceAction.body.error.message).toBe(byAlice.body.error.message);
    const rejectedByAlice = await request(server)
      .post(`/api/promotions/promotions/${promotion.id}/reject`)
      .set('Authorization', asUser('alice'))
      .send({ reason: 'not mine to answer' });
    expect(rejectedByAlice.status).toBe(403);

    const byErin = await approve(server, promotion.id, 'erin');
    expect(byErin.status).toBe(200);
    expect(byErin.body.promotion).toMatchObject({ status: 'approved', approvedBy: 'user:default/erin' });
    expect(await inbox(server, 'erin')).toEqual([]);
  });
});

describe("a Product's own approvers besides the global ones, and its own quorum", () => {
  // Its Gate runs (it merges once the quorum is met): the inboxes are read for its own Product only.
  const block = backendForBlock({ systemAnnotations: QUORUM_2 });
  let server: Server;
  let shop: TestProduct;

  beforeAll(() => {
    ({ server, shop } = block);
  });

  it('waits after the first approval, takes it out of that approver’s inbox only, and merges after the second', async () => {
    const ladder = await request(server).get(`/api/promotions/products/${shop.ref}/ladder`).set('Authorization', asUser('bob'));
    expect(ladder.body.approvers).toEqual(['group:default/release-approvers', 'group:default/shop-release']);
    const promotion = await requestProd(server, shop);
    expect(await inbox(server, 'alice', shop)).toEqual([promotion.id]);
    expect(await inbox(server, 'erin', shop)).toEqual([promotion.id]);

    const byAlice = await approve(server, promotion.id, 'alice');
    expect(byAlice.status).toBe(200);
    expect(byAlice.body.promotion).toMatchObject({
      status: 'awaiting-approval',
      statusReason: '1 of 2 approvals (Alice Approver); waiting for another release-approver',
    });
    // The ladder says where it stands: Alice's approval of its head, one of the two it needs.
    const partly = await eventually(async () => {
      const body = (await request(server).get(`/api/promotions/products/${shop.ref}/ladder`).set('Authorization', asUser('bob'))).body;
      const onLadder = body.promotions.find((p: Promotion) => p.id === promotion.id);
      return onLadder?.approval?.approvals.length ? onLadder : undefined;
    }, 10_000);
    expect(partly.approval).toEqual({
      headSha: expect.stringMatching(/^[0-9a-f]{40}$/),
      approvals: [{ approver: 'user:default/alice', at: expect.any(String), role: 'release-approver' }],
      quorum: 2,
      quorumApprovers: ['user:default/alice'],
      progress: '1 of 2',
      quorumMet: false,
      commanderNeeded: false,
    });
    // Alice approved its head: it waits for someone else, not for her.
    expect(await inbox(server, 'alice', shop)).toEqual([]);
    expect(await inbox(server, 'erin', shop)).toEqual([promotion.id]);
    expect(await inbox(server, 'carol', shop)).toEqual([promotion.id]);

    const byErin = await approve(server, promotion.id, 'erin');
    expect(byErin.status).toBe(200);
    expect(byErin.body.promotion).toMatchObject({
      status: 'approved',
      approvedBy: 'user:default/alice, user:default/erin',
    });
    await mergedEventually(server, promotion.id);
    expect(await inbox(server, 'carol', shop)).toEqual([]);
  });
});

const databases = TestDatabases.create({ ids: ['POSTGRES_15', 'SQLITE_3'] });

describe.each(databases.eachSupportedId())('two approvers at the same instant on two replicas, one %p database', databaseId => {
  const worlds: FakesBackend[] = [];

  afterEach(async () => {
    // The replica first: the platform is the first's.
    for (const world of worlds.splice(0).reverse()) await world.stop();
  });

  it('count both approvals of a quorum-2 promotion, which merges exactly once', async () => {
    const knex = await databases.init(databaseId);
    const first = await startPromotionsBackendOnFakes({ knex, systemAnnotations: QUORUM_2 });
    worlds.push(first);
    worlds.push(await startPromotionsBackendOnFakes({ knex, systemAnnotations: QUORUM_2 }, first.platform));
    const replicas = worlds.map(world => world.server);
    const shop = first.addProduct('alpha/shop');
    const promotion = await requestProd(replicas[0], shop);

    const answers = await Promise.all([
      approve(replicas[0], promotion.id, 'alice'),
      approve(replicas[1], promotion.id, 'carol'),
    ]);
    expect(answers.map(answer => answer.status)).toEqual([200, 200]);
    // Exactly one of them met the quorum; whichever came second saw the first's approval.
    const statuses = answers.map(answer => answer.body.promotion.status).sort();
    expect(statuses).toEqual(['approved', 'awaiting-approval']);

    await mergedEventually(replicas[1], promotion.id);
    const { promotion: merged, events } = await detail(replicas[0], promotion.id);
    expect(merged.approvedBy.split(', ').sort()).toEqual(['user:default/alice', 'user:default/carol']);
    const types: string[] = events.map((event: { type: string }) => event.type);
    expect(types.filter(type => type === 'approved')).toHaveLength(2);
    expect(types.filter(type => type === 'merged')).toHaveLength(1);
  });
});
