import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import type { ApprovalItem, Promotion } from '@refplat/plugin-promotions-common';
import { getLadder } from '../__testUtils__/ladderViews';
import { FakesBackend, startPromotionsBackendOnFakes } from '../__testUtils__/fakesBackend';
import { eventually } from '../__testUtils__/testBackend';

type Server = FakesBackend['server'];

const asUser = (name: string) => mockCredentials.user.header(`user:default/${name}`);

/**
 * The inbox and rejections, on the in-memory fakes through the composition root (issue 46),
 * each test with a Product of its own (like alpha/shop), whose items of the inbox it reads. The
 * backend has no Gate running on its own; where an approval would have the
 * Gate merge at once, staging is rolling out (`stageHealth`) so that the promotion stays approved.
 */
describe('the approvals inbox and rejections', () => {
  let world: FakesBackend;
  let server: Server;
  /** The test's own Product, laid out as alpha/shop. */
  let shop: { team: string; product: string; ref: string };

  beforeAll(async () => {
    // No Gate: nothing merges on its own, so each promotion stays in the state a test put it in.
    // staging soaks for a second: the inbox shows the approver it has.
    world = await startPromotionsBackendOnFakes({
      gate: { enabled: false },
      stages: ['dev', 'test', 'uat', { name: 'staging', soakTime: { seconds: 1 } }, 'prod'],
    });
    server = world.server;
  });

  // A Product of each test's own: what one test merged or closed into prod is not another's.
  beforeEach(async () => {
    shop = world.addProduct('alpha/shop');
    // Soaked (the first view starts the clock) before the test asks for prod.
    await eventually(async () => {
      const staging = (await getLadder(server, shop.ref)).stages.find(stage => stage.name === 'staging')!;
      return Object.values(staging.services).every(cell => !cell.digest || cell.soakRemainingSeconds === 0) || undefined;
    });
  });

  afterAll(async () => {
    await world?.stop();
  });

  afterEach(() => {
    world.resync();
  });

  const requestProd = async (user: string): Promise<Promotion> => {
    const response = await request(server)
      .post(`/api/promotions/products/${shop.ref}/promotions`)
      .set('Authorization', asUser(user))
      .send({ toStage: 'prod' });
    expect(response.status).toBe(201);
    return response.body.promotion;
  };
  const inboxItems = async (user: string): Promise<ApprovalItem[]> => {
    const response = await request(server).get('/api/promotions/approvals').set('Authorization', asUser(user));
    expect(response.status).toBe(200);
    return (response.body.items as ApprovalItem[]).filter(item => `${item.team}/${item.product}` === shop.ref);
  };
  const inbox = async (user: string): Promise<string[]> => (await inboxItems(user)).map(promotion => promotion.id);
  const reject = (id: string, user: string, body: object) =>
    request(server).post(`/api/promotions/promotions/${id}/reject`).set('Authorization', asUser(user)).send(body);
  const pullRequestOf = (promotion: Promotion) => world.repo.pullRequests().find(pr => pr.number === promotion.pullRequest.number)!;

  it("lists bob's prod promotion for the approvers, and alice's rejection closes it and its PR with her reason", async () => {
    const promotion = await requestProd('bob');
    expect(promotion.status).toBe('awaiting-approval');
    expect(await inbox('alice')).toEqual([promotion.id]);
    expect(await inbox('carol')).toEqual([promotion.id]);
    expect(await inbox('bob')).toEqual([]);
    // What alice judges: staging still runs every digest promoted, healthy and soaked.
    const [item] = await inboxItems('alice');
    expect(item.awaiting).toEqual(['approvers']);
    expect(item.source).toEqual({
      stage: 'staging',
      soakSeconds: 1,
      services: Object.entries(promotion.services).map(([service, digest]) => ({
        service,
        digest,
        stillInSource: true,
        verdict: 'healthy',
        healthySince: expect.any(String),
        soakRemainingSeconds: 0,
      })),
    });
    // Degraded, staging is judged unhealthy (no soak to count); healthy again, it soaks again.
    const sourceOf = async () => (await inboxItems('alice')).find(candidate => candidate.id === promotion.id)?.source;
    world.stageHealth(shop, 'staging', 'Degraded');
    try {
      const degraded = await eventually(async () => {
        const source = await sourceOf();
        return source?.services.some(service => service.verdict === 'unhealthy') ? source : undefined;
      });
      for (const service of degraded.services) {
        expect(service).toMatchObject({ stillInSource: true, digest: promotion.services[service.service] });
      }
      const notHealthy = degraded.services.filter(service => service.verdict !== 'healthy');
      expect(notHealthy.map(service => service.soakRemainingSeconds)).toEqual(notHealthy.map(() => undefined));
    } finally {
      world.resync();
    }
    await eventually(async () => {
      const source = await sourceOf();
      return source?.services.every(service => service.soakRemainingSeconds === 0) || undefined;
    });
    const anonymous = await request(server).get('/api/promotions/approvals');
    expect(anonymous.status).toBe(401);

    const byBob = await reject(promotion.id, 'bob', { reason: 'changed my mind' });
    expect(byBob.status).toBe(403);
    expect(byBob.body.error.message).toMatch(/not a release-approver: rejections need membership/);

    for (const body of [{}, { reason: '   ' }, { reason: 42 }, { reason: 'x'.repeat(1001) }]) {
      const refused = await reject(promotion.id, 'alice', body);
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/reason/);
    }
    expect((await reject('00000000-0000-0000-0000-000000000000', 'alice', { reason: 'no' })).status).toBe(404);

    const byAlice = await reject(promotion.id, 'alice', { reason: 'cart 2.3 breaks checkout in staging' });
    expect(byAlice.status).toBe(200);
    // Who rejected is kept by ref; what people read names her as the catalog does.
    expect(byAlice.body.promotion).toMatchObject({
      id: promotion.id,
      status: 'closed',
      statusReason: 'Rejected by Alice Approver: cart 2.3 breaks checkout in staging',
      rejection: { by: 'user:default/alice', reason: 'cart 2.3 breaks checkout in staging' },
    });

    const pr = pullRequestOf(promotion);
    expect(pr.state).toBe('closed');
    expect(pr.merged).toBe(false);
    expect(pr.body).toMatch(/^Requested by Bob Builder \(`bob`\)/m);
    expect(pr.body).toContain('(members of release-approvers, shop-release)');
    const comments = world.repo.commentsOn(promotion.pullRequest.number);
    expect(comments.join('\n')).toMatch(
      /Rejected by Alice Approver \(`alice`\) in Backstage \(requested by Bob Builder \(`bob`\)\)[^]*cart 2\.3 breaks checkout in staging/,
    );
    expect([pr.body, ...comments].join('\n')).not.toMatch(/(user|group):default\//);
    expect(world.repo.branchHead(pr.headRef)).toBeUndefined();

    const { body: detail } = await request(server)
      .get(`/api/promotions/promotions/${promotion.id}`)
      .set('Authorization', asUser('bob'));
    expect(detail.events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'rejected', actor: 'user:default/alice', detail: 'cart 2.3 breaks checkout in staging' }),
      ]),
    );

    const again = await reject(promotion.id, 'carol', { reason: 'me too' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/Nothing to reject: .* is closed \(Rejected by Alice Approver/);
    expect(await inbox('alice')).toEqual([]);
  });

  it("keeps alice's own prod promotion out of her inbox (another approver must), and lets her withdraw it", async () => {
    const promotion = await requestProd('alice');
    expect(await inbox('alice')).toEqual([]);
    expect(await inbox('carol')).toEqual([promotion.id]);
    const withdrawn = await reject(promotion.id, 'alice', { reason: 'wrong digest' });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.promotion.status).toBe('closed');
    expect(await inbox('carol')).toEqual([]);
  });

  it('lets bob, who is no approver, withdraw his own prod request: closed with his reason, its PR closed with his comment', async () => {
    const promotion = await requestProd('bob');
    const withdraw = (user: string, body: object) =>
      request(server).post(`/api/promotions/promotions/${promotion.id}/withdraw`).set('Authorization', asUser(user)).send(body);

    expect((await withdraw('bob', { reason: '  ' })).status).toBe(400);
    // dave is neither its requester nor an approver of the shop.
    const byDave = await withdraw('dave', { reason: 'not mine' });
    expect([byDave.status, byDave.body.error.message]).toEqual([
      403,
      'Only the person who requested it, or one of the Product’s approvers, may withdraw it',
    ]);

    const byBob = await withdraw('bob', { reason: 'Requested prod by mistake' });
    expect(byBob.status).toBe(200);
    expect(byBob.body.promotion).toMatchObject({ status: 'closed', statusReason: 'Withdrawn by Bob Builder: Requested prod by mistake' });
    const pr = pullRequestOf(promotion);
    expect([pr.state, pr.merged]).toEqual(['closed', false]);
    expect(world.repo.commentsOn(promotion.pullRequest.number).join('\n')).toMatch(
      /Withdrawn by Bob Builder \(`bob`\) in Backstage \(requested by Bob Builder \(`bob`\)\):\n\n> Requested prod by mistake/,
    );
    expect(await inbox('alice')).toEqual([]);
    const again = await withdraw('bob', { reason: 'twice' });
    expect([again.status, again.body.error.message]).toEqual([
      409,
      `Nothing to withdraw: promotion ${promotion.id} is closed (Withdrawn by Bob Builder: Requested prod by mistake)`,
    ]);
  });

  it('rejects an approved promotion that has not merged yet', async () => {
    const promotion = await requestProd('bob');
    // The approval has the Gate look at once: staging rolling out, it does not merge.
    world.stageHealth(shop, 'staging', 'Progressing');
    const approved = await request(server)
      .post(`/api/promotions/promotions/${promotion.id}/approve`)
      .set('Authorization', asUser('carol'));
    expect(approved.body.promotion.status).toBe('approved');
    expect(await inbox('alice')).toEqual([]);
    const rejected = await reject(promotion.id, 'alice', { reason: 'prod is frozen for the sale' });
    expect(rejected.status).toBe(200);
    expect(rejected.body.promotion).toMatchObject({ status: 'closed', approvedBy: 'user:default/carol' });
  });

  it('records a PR merged on GitHub before the rejection took effect as merged, and answers 409', async () => {
    const promotion = await requestProd('bob');
    world.stageHealth(shop, 'staging', 'Progressing');
    await request(server).post(`/api/promotions/promotions/${promotion.id}/approve`).set('Authorization', asUser('carol'));
    // Merged by hand while the record still says approved (no Gate here to notice).
    world.repo.mergeByHand(promotion.pullRequest.number);

    const late = await reject(promotion.id, 'alice', { reason: 'stop' });
    expect(late.status).toBe(409);
    expect(late.body.error.message).toMatch(/Too late to reject: pull request #\d+ merged before the rejection took effect/);
    const { body } = await request(server)
      .get(`/api/promotions/promotions/${promotion.id}`)
      .set('Authorization', asUser('bob'));
    expect(body.promotion.status).toBe('merged');
    expect(body.events.map((e: { type: string }) => e.type)).toEqual(expect.arrayContaining(['rejected', 'merged']));
  });

  it('refuses 409 to reject a promotion that does not wait for approval', async () => {
    // The request has the Gate look at once; GitHub failing that merge keeps the promotion open.
    world.repo.failNext('mergePullRequest', { status: 502 });
    const response = await request(server)
      .post(`/api/promotions/products/${shop.ref}/promotions`)
      .set('Authorization', asUser('bob'))
      .send({ toStage: 'test', services: ['storefront'] });
    expect(response.status).toBe(201);
    const refused = await reject(response.body.promotion.id, 'alice', { reason: 'no' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/does not wait for approval/);
  });
});
