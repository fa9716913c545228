import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import type { Ladder, Promotion, PromotionEvent } from '@refplat/plugin-promotions-common';
import { FakesBackend, fakesBackendForBlock } from '../__testUtils__/fakesBackend';
import { eventually } from '../__testUtils__/testBackend';

type Product = ReturnType<FakesBackend['addProduct']>;

const asUser = (name: string) => mockCredentials.user.header(`user:default/${name}`);

/** What `stage` runs that `above` does not: what a promotion from `stage` into `above` carries. */
function aheadOf(world: FakesBackend, product: Product, stage: string, above: string): Record<string, string> {
  const target = world.released(product, above);
  return Object.fromEntries(Object.entries(world.released(product, stage)).filter(([service, digest]) => target[service] !== digest));
}

/** The routes a test calls for `product`, and what the fake GitHub holds of its PRs. */
function clientOf(world: FakesBackend, product: Product) {
  const { server, repo } = world;
  const detail = async (id: string) =>
    (await request(server).get(`/api/promotions/promotions/${id}`).set('Authorization', asUser('bob'))).body as {
      promotion: Promotion;
      events: PromotionEvent[];
    };
  const statusIs = (id: string, status: Promotion['status']) =>
    eventually(async () => {
      const { promotion } = await detail(id);
      return promotion.status === status ? promotion : undefined;
    }, 30_000);
  return {
    requestPromotion: (body: object, user = 'bob') =>
      request(server).post(`/api/promotions/products/${product.ref}/promotions`).set('Authorization', asUser(user)).send(body),
    approve: (id: string, user: string) => request(server).post(`/api/promotions/promotions/${id}/approve`).set('Authorization', asUser(user)),
    ladder: async (): Promise<Ladder> =>
      (await request(server).get(`/api/promotions/products/${product.ref}/ladder`).set('Authorization', asUser('bob'))).body,
    detail,
    statusIs,
    /** The Product's open PRs. */
    openPulls: () => repo.pullRequests().filter(pr => pr.state === 'open' && pr.headRef.startsWith(product.branchPrefix)),
    headStatuses: (pullNumber: number) => repo.latestStatusesOf(repo.pullRequests().find(pr => pr.number === pullNumber)!.headSha),
  };
}

/**
 * Promotion requests, approvals and what the Gate does with PRs changed by hand, on the in-memory
 * fakes through the composition root (issue 46; these ran on the simulator before). Each test
 * promotes a Product of its own. What GitHub's protocol decides (a PR's diff, its faults and
 * limits, pushes to its branch) stays with the simulator (promotions.api.suite.ts).
 */
describe('promotions on one backend', () => {
  const handle = fakesBackendForBlock();

  it('waits for a release-approver at prod: requester and non-approvers cannot approve, alice can', async () => {
    const { world } = handle;
    const shop = world.addProduct('alpha/shop');
    const api = clientOf(world, shop);
    const carried = aheadOf(world, shop, 'staging', 'prod');
    const first = await api.requestPromotion({ toStage: 'prod' });
    expect(first.status).toBe(201);
    const promotion: Promotion = first.body.promotion;
    expect(promotion.status).toBe('awaiting-approval');
    expect(Object.keys(carried).length).toBeGreaterThan(0);
    expect(promotion.services).toEqual(carried);

    const repeat = await api.requestPromotion({ toStage: 'prod' });
    expect(repeat.status).toBe(200);
    expect(repeat.body.promotion.pullRequest.number).toBe(promotion.pullRequest.number);

    const byBob = await api.approve(promotion.id, 'bob');
    expect(byBob.status).toBe(403);
    expect(byBob.body.error.message).toMatch(/not a release-approver/);

    // The Gate has judged the PR (its source is healthy) and, without approval, merged nothing.
    await eventually(async () => (await api.detail(promotion.id)).events.some(event => event.type === 'checks-passed') || undefined);
    expect((await api.detail(promotion.id)).promotion.status).toBe('awaiting-approval');
    expect(aheadOf(world, shop, 'staging', 'prod')).toEqual(carried);

    const byAlice = await api.approve(promotion.id, 'alice');
    expect(byAlice.status).toBe(200);
    expect(byAlice.body.promotion).toMatchObject({ status: 'approved', approvedBy: 'user:default/alice' });
    expect((await api.approve(promotion.id, 'alice')).status).toBeLessThan(500);

    await api.statusIs(promotion.id, 'merged');
    expect(world.released(shop, 'prod')).toMatchObject(carried);
    expect(world.repo.commentsOn(promotion.pullRequest.number).join('\n')).toMatch(/Approved by Alice Approver \(`alice`\) in Backstage/);
    expect(api.headStatuses(promotion.pullRequest.number)['promotions/approval']).toMatchObject({
      state: 'success',
      description: 'Approved by Alice Approver',
    });
  });

  it('refuses 409 when the requester approves their own prod promotion', async () => {
    const api = clientOf(handle.world, handle.world.addProduct('alpha/shop'));
    const response = await api.requestPromotion({ toStage: 'prod' }, 'alice');
    expect(response.status).toBe(201);
    const own = await api.approve(response.body.promotion.id, 'alice');
    expect(own.status).toBe(409);
    expect(own.body.error.message).toMatch(/may not approve it/);
    expect((await api.approve(response.body.promotion.id, 'carol')).status).toBe(200);
  });

  it('notices a PR closed by hand on GitHub', async () => {
    const api = clientOf(handle.world, handle.world.addProduct('alpha/shop'));
    const promotion: Promotion = (await api.requestPromotion({ toStage: 'prod' })).body.promotion;
    handle.world.repo.closeByHand(promotion.pullRequest.number);
    const closed = await api.statusIs(promotion.id, 'closed');
    expect(closed.statusReason).toMatch(/closed on GitHub/);
  });

  it('notices a PR merged by hand on GitHub', async () => {
    const api = clientOf(handle.world, handle.world.addProduct('alpha/shop'));
    const promotion: Promotion = (await api.requestPromotion({ toStage: 'prod' })).body.promotion;
    handle.world.repo.mergeByHand(promotion.pullRequest.number);
    const merged = await api.statusIs(promotion.id, 'merged');
    expect(merged.statusReason).toMatch(/Merged on GitHub/);
  });

  it('supersedes a different open promotion into the same stage, with a comment on the old PR', async () => {
    const { world } = handle;
    const shop = world.addProduct('alpha/shop');
    const api = clientOf(world, shop);
    const first = await api.requestPromotion({ toStage: 'prod' });
    expect(first.body.promotion.services).toEqual(aheadOf(world, shop, 'staging', 'prod'));
    expect(first.body.promotion.services.checkout).toBeUndefined();

    // staging moves on (checkout hotfixed, a change merged by hand), and settles healthy
    const newCheckout = `sha256:${'5'.repeat(64)}`;
    const path = `gitops/releases/${shop.team}/${shop.product}/staging.yaml`;
    const text = world.repo.fileAt(world.repo.branchHead()!, path)!;
    world.repo.commit({ [path]: text.replace(world.released(shop, 'staging').checkout, newCheckout) }, { message: 'hotfix checkout in staging' });
    await eventually(async () => {
      const cell = (await api.ladder()).stages.find(stage => stage.name === 'staging')!.services.checkout;
      return cell.digest === newCheckout && cell.healthy ? true : undefined;
    });

    const second = await api.requestPromotion({ toStage: 'prod' });
    expect(second.status).toBe(201);
    expect(second.body.promotion.services).toEqual({ ...first.body.promotion.services, checkout: newCheckout });
    const old = (await api.detail(first.body.promotion.id)).promotion;
    expect(old.status).toBe('closed');
    expect(old.statusReason).toMatch(/Superseded/);
    expect(world.repo.commentsOn(first.body.promotion.pullRequest.number).join('\n')).toContain(
      `Superseded by #${second.body.promotion.pullRequest.number}`,
    );
    expect(api.openPulls()).toHaveLength(1);
  });
});

/**
 * Refusals, on a backend of their own: no other test's promotion is open there for its Gate to
 * write to, so "writes nothing" counts every write the fake repository received.
 */
describe('refused promotion requests', () => {
  const handle = fakesBackendForBlock();

  it.each([
    ['the source is Degraded', (world: FakesBackend, shop: Product) => world.stageHealth(shop, 'dev', 'Degraded'), { toStage: 'test', services: ['storefront'] }, /not healthy in dev/],
    ['ArgoCD is unreachable', (world: FakesBackend) => world.argo.unreachable('connect ECONNREFUSED'), { toStage: 'test', services: ['storefront'] }, /unknown/],
    ['the service is not declared', () => undefined, { toStage: 'uat', services: ['checkout'] }, /does not declare checkout/],
    ['the target is the first stage', () => undefined, { toStage: 'dev' }, /first stage/],
    ['the target already carries it', () => undefined, { toStage: 'uat', services: ['storefront'] }, /already carries/],
  ])('refuses with 409 and writes nothing when %s', async (_name, arrange, body, message) => {
    const { world } = handle;
    const shop = world.addProduct('alpha/shop');
    const api = clientOf(world, shop);
    arrange(world, shop);
    try {
      const mark = world.repo.calls.length;
      const response = await api.requestPromotion(body);
      expect({ status: response.status, message: response.body.error?.message }).toEqual({ status: 409, message: expect.stringMatching(message) });
      expect(world.writesSince(mark)).toEqual([]);
      expect(api.openPulls()).toEqual([]);
    } finally {
      world.argo.unreachable(undefined);
      world.resync();
    }
  });

  it.each([
    [{ toStage: 'Prod' }, /request\/body\/toStage must match pattern/],
    [{ toStage: 'qa' }, /Unknown stage 'qa'/],
    [{ toStage: 'test', services: ['nope'] }, /nope is not a service/],
    [{ toStage: 'test', services: 'storefront' }, /request\/body\/services must be array/],
  ])('answers 400 to %p, and writes nothing', async (body, message) => {
    const { world } = handle;
    const api = clientOf(world, { team: 'alpha', product: 'shop', ref: 'alpha/shop', branchPrefix: 'promotions/alpha-shop-' });
    const mark = world.repo.calls.length;
    const response = await api.requestPromotion(body);
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(message);
    expect(world.writesSince(mark)).toEqual([]);
  });
});

describe('promotions under their own configuration', () => {
  const handle = fakesBackendForBlock({ promotions: { approval: { requireDistinctApprover: false } } });

  it("counts the requester's own approval with requireDistinctApprover: false, and the Gate merges it", async () => {
    const api = clientOf(handle.world, handle.world.addProduct('alpha/shop'));
    const response = await api.requestPromotion({ toStage: 'prod' }, 'alice');
    expect(response.status).toBe(201);
    const id: string = response.body.promotion.id;
    // The Gate verifies the PR head before anyone may approve it.
    await eventually(async () => (await api.detail(id)).events.some(event => event.type === 'checks-passed') || undefined);
    const own = await api.approve(id, 'alice');
    expect({ status: own.status, error: own.body.error?.message }).toEqual({ status: 200, error: undefined });
    expect(own.body.promotion).toMatchObject({ status: 'approved', approvedBy: 'user:default/alice' });
    await api.statusIs(id, 'merged');
  });
});
