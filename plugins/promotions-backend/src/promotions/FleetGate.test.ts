import { releasePath } from '../ladder/readProductRecords';
import { digest, promotionsWorld, releaseFile } from './__testUtils__/promotionsWorld';
import { PRODUCTS, fleetWorld } from './__testUtils__/fleetWorld';
import { PromotionGuards } from '../guards/PromotionGuards';
import { FleetGate } from './FleetGate';
import { applyLifecycleEvent } from './PromotionLifecycle';
import { parseFleetPullRequestBody } from './fleetPullRequestText';
import { parseMarkers } from './pullRequestText';

describe('fleet mode', () => {
  it('opens one PR for every Product climbing the rung, with one commit, and merges it once each is ready', async () => {
    const { repo, store, queue, fleetGate, run, opened, released } = await fleetWorld();
    expect(run.queued.map(q => q.product).sort()).toEqual(['alpha/shop', 'beta/cart', 'gamma/pay']);
    const callsBefore = repo.calls.length;

    expect(await queue.drain()).toEqual({ opened: 3, dropped: 0, failed: 0, unanswered: 0 });

    const [pr] = repo.pullRequests();
    expect(repo.pullRequests()).toHaveLength(1);
    expect(repo.calls.slice(callsBefore).filter(call => ['commitFiles', 'commitFile', 'createBranch', 'openPullRequest'].includes(call))).toEqual([
      'commitFiles',
      'openPullRequest',
    ]);
    expect(parseMarkers(pr.body).map(marker => marker.key).sort()).toEqual(['alpha/shop/uat', 'beta/cart/uat', 'gamma/pay/uat']);
    // Each Product's section reads back whole: a record the database loses is restored from it.
    expect(parseFleetPullRequestBody(pr.body).map(facts => ({ product: `${facts.team}/${facts.product}`, services: facts.services }))).toEqual(
      expect.arrayContaining(PRODUCTS.map(p => ({ product: `${p.team}/${p.product}`, services: { api: digest('b') } }))),
    );
    for (const { promotionId } of run.queued) {
      expect(await store.get(promotionId)).toMatchObject({ status: 'open', pullRequest: { number: pr.number }, headSha: pr.headSha });
    }
    expect(opened).toHaveLength(1);

    await fleetGate.check(pr.number);

    expect(repo.pullRequests()[0]).toMatchObject({ state: 'closed', merged: true });
    for (const product of PRODUCTS) expect(released(product, 'uat')).toBe(digest('b'));
    for (const { promotionId } of run.queued) {
      expect((await store.get(promotionId))!.status).toBe('merged');
      // Each Product's trail says its stage below was judged, then the merge.
      expect((await store.listEvents(promotionId)).map(event => event.type)).toEqual(expect.arrayContaining(['pr-opened', 'checks-passed', 'merged']));
    }
    // Each Release file keeps its own history: the merge changed each Product's file, nothing else.
    expect(repo.calls.filter(call => call === 'setStatus')).toEqual([]);
  });

  it('takes out a Product whose stage below stops being healthy before the merge, with a commit, and merges the rest', async () => {
    const { repo, store, queue, fleetGate, run, released, degradeCartDev } = await fleetWorld();
    await queue.drain();
    const [pr] = repo.pullRequests();
    degradeCartDev();

    await fleetGate.check(pr.number);

    expect(repo.pullRequests()[0]).toMatchObject({ state: 'closed', merged: true });
    expect(released({ team: 'alpha', product: 'shop' }, 'uat')).toBe(digest('b'));
    expect(released({ team: 'gamma', product: 'pay' }, 'uat')).toBe(digest('b'));
    expect(released({ team: 'beta', product: 'cart' }, 'uat')).toBe(digest('a'));
    const cart = run.queued.find(q => q.product === 'beta/cart')!;
    expect(await store.get(cart.promotionId)).toMatchObject({
      status: 'closed',
      statusReason: expect.stringMatching(new RegExp(`^Taken out of fleet PR #${pr.number}: dev not ready: api`)),
    });
    expect(repo.calls.filter(call => call === 'commitFiles')).toHaveLength(2);
  });

  it('takes out a Product a guard blocks at the moment of the merge, and merges the rest', async () => {
    const { repo, store, queue, run, config, logger, clock, released, ladderService } = await fleetWorld();
    await queue.drain();
    const [pr] = repo.pullRequests();
    const asked: string[] = [];
    const guards = new PromotionGuards(
      [
        {
          name: 'change-window',
          evaluate: async (subject, context) => {
            asked.push(`${subject.product} ${context.beforeMerge ? 'fresh' : 'kept'}`);
            return subject.product === 'pay' ? { verdict: 'block', reason: 'gamma is frozen' } : { verdict: 'allow', reason: 'open' };
          },
        },
      ],
      logger,
    );
    const gate = new FleetGate({ config, store, writer: repo, files: repo, ladder: ladderService(), guards, logger, clock });

    await gate.check(pr.number);

    expect(repo.pullRequests()[0]).toMatchObject({ merged: true });
    expect(released({ team: 'gamma', product: 'pay' }, 'uat')).toBe(digest('a'));
    expect(released({ team: 'beta', product: 'cart' }, 'uat')).toBe(digest('b'));
    const pay = run.queued.find(q => q.product === 'gamma/pay')!;
    expect(await store.get(pay.promotionId)).toMatchObject({ status: 'closed', statusReason: expect.stringContaining('gamma is frozen') });
    // Kept verdicts first; afresh only for the merge.
    expect(asked.filter(a => a.endsWith('fresh')).sort()).toEqual(['cart fresh', 'shop fresh']);
  });

  it('leaves the fleet PR open when a person’s request replaces one Product, and takes that Product’s file out before merging', async () => {
    const world = await fleetWorld();
    const { repo, store, queue, fleetGate, run, released } = world;
    await queue.drain();
    const [fleetPr] = repo.pullRequests();
    const shop = run.queued.find(q => q.product === 'alpha/shop')!;
    await applyLifecycleEvent(store, shop.promotionId, 'superseded', {
      changes: { statusReason: 'Superseded by a person’s request' },
      audit: { type: 'superseded', actor: 'user:default/alice' },
    });

    await fleetGate.check(fleetPr.number);

    const merged = repo.pullRequests().find(p => p.number === fleetPr.number)!;
    expect(merged).toMatchObject({ merged: true });
    expect(released({ team: 'alpha', product: 'shop' }, 'uat')).toBe(digest('a'));
    expect(released({ team: 'beta', product: 'cart' }, 'uat')).toBe(digest('b'));
  });

  it('the reconciler keeps a fleet PR open while any of its Products is live, whichever marker comes first', async () => {
    const { repo, store, queue, run, reconciler } = await fleetWorld();
    await queue.drain();
    const [pr] = repo.pullRequests();
    const first = parseMarkers(pr.body)[0];
    await applyLifecycleEvent(store, first.id, 'superseded', {
      changes: { statusReason: 'Superseded by a person’s request' },
      audit: { type: 'superseded', actor: 'user:default/alice' },
    });

    await reconciler.reconcile();

    expect(repo.pullRequests()[0]).toMatchObject({ state: 'open' });
    for (const { promotionId } of run.queued.filter(q => q.promotionId !== first.id)) {
      expect((await store.get(promotionId))!.status).toBe('open');
    }
    // None live: then it is closed, as a PR of one promotion is.
    for (const { promotionId } of run.queued) {
      await applyLifecycleEvent(store, promotionId, 'superseded', {
        changes: { statusReason: 'Superseded' },
        audit: { type: 'superseded', actor: 'user:default/alice' },
      });
    }
    await reconciler.reconcile(Date.now() + 3_600_000);
    expect(repo.pullRequests()[0]).toMatchObject({ state: 'closed', merged: false });
  });

  it('closes the PR when every Product is taken out, and leaves every Release as it was', async () => {
    const { repo, store, queue, fleetGate, run, config, released } = await fleetWorld();
    await queue.drain();
    const [pr] = repo.pullRequests();
    // Every target moved on the base branch while the PR waited.
    repo.commit(Object.fromEntries(PRODUCTS.map(p => [releasePath(config, p, 'uat'), releaseFile('uat', { api: digest('d') })])));

    await fleetGate.check(pr.number);

    expect(repo.pullRequests()[0]).toMatchObject({ state: 'closed', merged: false });
    for (const product of PRODUCTS) expect(released(product, 'uat')).toBe(digest('d'));
    for (const { promotionId } of run.queued) {
      expect(await store.get(promotionId)).toMatchObject({ status: 'closed', statusReason: expect.stringContaining('its target Release changed') });
    }
  });

  it('batches no more than maxProducts in a PR, and the rest in the next', async () => {
    const { repo, queue } = await fleetWorld({ maxProducts: 2 });

    expect(await queue.drain()).toEqual({ opened: 3, dropped: 0, failed: 0, unanswered: 0 });

    expect(repo.pullRequests().map(pr => parseMarkers(pr.body).length)).toEqual([2, 1]);
  });

  it('is off by default: each promotion gets a PR of its own', async () => {
    const world = promotionsWorld();
    expect(world.config.autoPromote.fleet).toEqual({ enabled: false, maxProducts: 50, groupBy: 'none' });
  });
});
