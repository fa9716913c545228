import { givesTheEventLoopATurn } from '../__testUtils__/eventLoopTurn';
import { ProductRef, decideAutoPromotions } from '@refplat/plugin-promotions-common';
import { LadderService } from '../ladder/LadderService';
import { HoldStore } from '@refplat/plugin-promotions-node';
import { environmentPath, releasePath } from '../ladder/readProductRecords';
import { parseRelease } from '../releases/records';
import { SHOP, digest, environmentFile, productSystem, promotionsWorld, releaseFile } from './__testUtils__/promotionsWorld';
import { AUTO_PROMOTE_ANNOTATION, AUTO_PROMOTER, AutoPromoter } from './AutoPromoter';

const BOB = 'user:default/bob';
const CART = { team: 'beta', product: 'cart' };

type World = ReturnType<typeof promotionsWorld>;

/**
 * A run of `promoter`, then the write queue drained, as the backend drains it
 * after a run: `opened` is each promotion the run queued with its PR number
 * (0 where opening it failed), in the queue's order.
 */
async function climb(world: World, promoter: AutoPromoter, options?: Parameters<AutoPromoter['run']>[0]) {
  const run = await promoter.run(options);
  await world.writeQueue.drain();
  const opened = await Promise.all(
    run.queued.map(async ({ product, toStage, promotionId }) => ({
      product,
      toStage,
      pullRequest: (await world.store.get(promotionId))!.pullRequest.number,
    })),
  );
  return { ...run, opened };
}

/** alpha/shop with `releases` (stage → api's digest), each stage running what it releases, healthy. */
function autoWorld(releases: Record<string, string>, config: object = {}) {
  const world = promotionsWorld({
    config: { stages: Object.keys(releases), ...config },
    releases: Object.fromEntries(Object.entries(releases).map(([stage, d]) => [stage, { api: d }])),
  });
  world.runAsReleased();
  const autoPromoter = world.autoPromoter();
  const promoter = { run: (options?: Parameters<AutoPromoter['run']>[0]) => climb(world, autoPromoter, options) };
  /** The digest the PR of a promotion writes into its stage's Release record. */
  const proposed = (number: number, stage: string, product: ProductRef = SHOP) => {
    const pr = world.repo.pullRequests().find(p => p.number === number)!;
    return parseRelease(world.repo.fileAt(pr.headSha, releasePath(world.config, product, stage))!).services.api;
  };
  /** Merges a PR by hand, and every stage then runs what its Release record says, healthy. */
  const mergeAndRun = (number: number) => {
    world.repo.mergeByHand(number);
    world.runAsReleased();
  };
  return { ...world, promoter, proposed, mergeAndRun };
}

describe('AutoPromoter', () => {
  it('moves each digest up one rung per run, never two', async () => {
    const { promoter, repo, proposed, mergeAndRun, store } = autoWorld({
      dev: digest('c'),
      test: digest('b'),
      uat: digest('a'),
      prod: digest('a'),
    });

    const first = await promoter.run();

    // The upper rung opens first, so that the lower one's merge cannot move its source on.
    expect(first.opened).toEqual([
      { product: 'alpha/shop', toStage: 'uat', pullRequest: 1 },
      { product: 'alpha/shop', toStage: 'test', pullRequest: 2 },
    ]);
    expect(proposed(2, 'test')).toBe(digest('c'));
    // b climbs from test into uat; c, which only now goes to test, does not climb past it.
    expect(proposed(1, 'uat')).toBe(digest('b'));
    expect((await store.listForProduct(SHOP.team, SHOP.product, 10)).map(p => p.requestedBy)).toEqual([AUTO_PROMOTER, AUTO_PROMOTER]);

    mergeAndRun(1);
    mergeAndRun(2);
    // As the Gate records PRs merged by hand.
    await store.transition((await store.findLive(SHOP.team, SHOP.product, 'test'))!.id, {}, { status: 'merged' });
    await store.transition((await store.findLive(SHOP.team, SHOP.product, 'uat'))!.id, {}, { status: 'merged' });
    const second = await promoter.run();

    expect(second.opened).toEqual([{ product: 'alpha/shop', toStage: 'uat', pullRequest: 3 }]);
    expect(proposed(3, 'uat')).toBe(digest('c'));
    expect(repo.pullRequests()).toHaveLength(3);
  });

  it('waits while the stage below soaks, by the clock, and promotes once it has soaked', async () => {
    const { promoter, clock, repo, proposed, autoDecisions } = autoWorld(
      { dev: digest('b'), uat: digest('a'), prod: digest('a') },
      { stages: [{ name: 'dev', soakTime: { minutes: 30 } }, 'uat', 'prod'] },
    );

    const started = await promoter.run();
    expect(started.opened).toEqual([]);
    expect(started.decisions).toMatchObject([
      { toStage: 'uat', service: 'api', decision: 'skip', reason: 'soaking in dev: 30m left of 30m', soakRemainingSeconds: 1800 },
    ]);

    clock.advance({ minutes: 29 });
    const soaking = await promoter.run();
    expect(soaking.decisions).toMatchObject([{ decision: 'skip', soakRemainingSeconds: 60 }]);
    expect(repo.pullRequests()).toEqual([]);

    clock.advance({ minutes: 1 });
    const soaked = await promoter.run();
    expect(soaked.opened).toEqual([{ product: 'alpha/shop', toStage: 'uat', pullRequest: 1 }]);
    expect(proposed(1, 'uat')).toBe(digest('b'));
    expect(await autoDecisions.latest(SHOP)).toMatchObject([{ toStage: 'uat', decision: 'promote', digest: digest('b') }]);
  });

  it('starts the soak again when the stage below was unhealthy meanwhile', async () => {
    const { promoter, clock, argo, repo, runAsReleased } = autoWorld(
      { dev: digest('b'), uat: digest('a'), prod: digest('a') },
      { stages: [{ name: 'dev', soakTime: { minutes: 30 } }, 'uat', 'prod'] },
    );
    await promoter.run();
    clock.advance({ minutes: 20 });
    argo.setApplication(SHOP, 'dev', { health: 'Degraded', revision: repo.branchHead() });
    expect((await promoter.run()).decisions).toMatchObject([{ decision: 'skip', reason: expect.stringMatching(/not healthy in dev/) }]);

    runAsReleased();
    clock.advance({ minutes: 20 });
    expect((await promoter.run()).decisions).toMatchObject([{ decision: 'skip', soakRemainingSeconds: 1800 }]);
    clock.advance({ minutes: 30 });
    expect((await promoter.run()).opened).toHaveLength(1);
  });

  it('leaves a held stage alone until the hold is lifted', async () => {
    const { promoter, holds, repo } = autoWorld({ dev: digest('b'), uat: digest('a'), prod: digest('a') });
    await holds.place(SHOP, { stage: 'uat', service: 'api', reason: 'Investigating INC-7', placedBy: BOB });

    const held = await promoter.run();

    expect(held.decisions).toMatchObject([
      { toStage: 'uat', decision: 'skip', reason: 'held in uat: Investigating INC-7 (by bob)', digest: digest('b') },
    ]);
    expect(repo.pullRequests()).toEqual([]);

    await holds.lift(SHOP, 'uat', 'api', BOB);
    expect((await promoter.run()).opened).toEqual([{ product: 'alpha/shop', toStage: 'uat', pullRequest: 1 }]);
  });

  it("holds one service in one stage: the Product's other services climb", async () => {
    const world = promotionsWorld({
      releases: {
        dev: { api: digest('b'), web: digest('d') },
        uat: { api: digest('a'), web: digest('c') },
        prod: { api: digest('a'), web: digest('c') },
      },
    });
    world.runAsReleased();
    await world.holds.place(SHOP, { stage: 'uat', service: 'api', reason: 'Investigating INC-7', placedBy: BOB });

    const run = await climb(world, world.autoPromoter());

    expect(run.opened).toEqual([{ product: 'alpha/shop', toStage: 'uat', pullRequest: 1 }]);
    const [pr] = world.repo.pullRequests();
    expect(parseRelease(world.repo.fileAt(pr.headSha, releasePath(world.config, SHOP, 'uat'))!).services).toEqual({
      api: digest('a'),
      web: digest('d'),
    });
  });

  it('never promotes into an approval stage', async () => {
    const { promoter, repo } = autoWorld({ dev: digest('b'), uat: digest('b'), prod: digest('a') });

    const run = await promoter.run();

    expect(run.opened).toEqual([]);
    expect(run.decisions.map(d => d.toStage)).toEqual(['uat']);
    expect(repo.pullRequests()).toEqual([]);
  });

  it('never downgrades: an older digest below does not climb over a newer one', async () => {
    const { promoter, repo, config, runAsReleased } = autoWorld({ dev: digest('a'), uat: digest('a'), prod: digest('a') });
    repo.commit({
      [releasePath(config, SHOP, 'dev')]: releaseFile('dev', { api: digest('b') }),
      [releasePath(config, SHOP, 'uat')]: releaseFile('uat', { api: digest('b') }),
    });
    // dev is rolled back to a, which reached dev before b did.
    repo.commit({ [releasePath(config, SHOP, 'dev')]: releaseFile('dev', { api: digest('a') }) });
    runAsReleased();

    const run = await promoter.run();

    expect(run.decisions).toMatchObject([
      { toStage: 'uat', decision: 'skip', digest: digest('a'), reason: expect.stringMatching(/^would be a downgrade: .*; only a person rolls uat back$/) },
    ]);
    expect(repo.pullRequests()).toEqual([]);
  });

  it("never replaces a person's open promotion into the stage", async () => {
    const world = autoWorld({ dev: digest('b'), uat: digest('a'), prod: digest('a') });
    const requested = (await world.promotionService().request(SHOP, { toStage: 'uat' }, BOB)).promotion;
    world.repo.commit({ [releasePath(world.config, SHOP, 'dev')]: releaseFile('dev', { api: digest('c') }) });
    world.runAsReleased();

    const run = await world.promoter.run();

    expect(run.opened).toEqual([]);
    expect(run.decisions).toMatchObject([
      { toStage: 'uat', decision: 'skip', digest: digest('c'), reason: 'a promotion into uat is already open' },
    ]);
    expect(await world.store.findLive(SHOP.team, SHOP.product, 'uat')).toMatchObject({ id: requested.id, requestedBy: BOB });
    expect(world.repo.pullRequests()).toMatchObject([{ number: 1, state: 'open' }]);
  });

  it('promotes nothing while the health source cannot be reached', async () => {
    const { promoter, argo, repo } = autoWorld({ dev: digest('b'), uat: digest('a'), prod: digest('a') });
    argo.unreachable('connection refused');

    const run = await promoter.run();

    expect(run.decisions).toMatchObject([
      { toStage: 'uat', decision: 'skip', reason: expect.stringMatching(/^api's health in dev is unknown: .*connection refused/) },
    ]);
    expect(repo.pullRequests()).toEqual([]);
  });

  it('leaves a Product whose System opts out alone', async () => {
    const world = autoWorld({ dev: digest('b'), uat: digest('a'), prod: digest('a') });
    const system = productSystem('alpha/shop', { [AUTO_PROMOTE_ANNOTATION]: 'false' });

    const run = await climb(world, world.autoPromoter({ systems: [system] }));

    expect(run).toMatchObject({ optedOut: ['alpha/shop'], notInCatalog: [], opened: [], decisions: [] });
    expect(world.repo.pullRequests()).toEqual([]);
  });

  it('leaves a Product without a System in the catalog alone: a catalog still ingesting may not know yet that it opts out', async () => {
    const world = autoWorld({ dev: digest('b'), uat: digest('a'), prod: digest('a') });

    const run = await climb(world, world.autoPromoter({ systems: [productSystem('beta/cart')] }));

    expect(run).toMatchObject({ products: 1, optedOut: [], notInCatalog: ['alpha/shop'], opened: [], decisions: [] });
    expect(world.repo.pullRequests()).toEqual([]);
  });

  it('decides a Product with nothing to climb from its Release records alone, as its whole ladder would', async () => {
    const world = autoWorld({ dev: digest('a'), test: digest('a'), uat: digest('a'), prod: digest('b') });
    // The whole ladder's build (health, history, promotions, annotations) is private: spied on by name.
    const buildLadder = jest.spyOn(LadderService.prototype as unknown as { buildLadder: () => Promise<unknown> }, 'buildLadder');
    const listLive = jest.spyOn(world.holds, 'listLive');

    const run = await world.promoter.run();

    expect(run.decisions.map(d => d.reason)).toEqual(['test already carries it', 'uat already carries it']);
    // Neither its ladder, nor ArgoCD's resource trees, nor its holds were read.
    expect(buildLadder).not.toHaveBeenCalled();
    expect(listLive).not.toHaveBeenCalled();
    buildLadder.mockRestore();
    const whole = await world.ladderService().getLadder(SHOP, { healthOf: 'auto-promotion-sources' });
    const context = { holds: [], soakSeconds: {}, healthySince: {}, livePromotions: [], now: world.clock.now() };
    expect(run.decisions).toEqual(decideAutoPromotions(whole, context).decisions.map(d => ({ ...d, product: 'alpha/shop' })));
    expect(await world.autoDecisions.latest(SHOP)).toMatchObject([{ reason: 'test already carries it' }, { reason: 'uat already carries it' }]);
  });

  it('lets the event loop answer I/O between Products, so requests in flight do not time out behind a scan', async () => {
    const world = autoWorld({ dev: digest('a'), test: digest('a'), uat: digest('a'), prod: digest('b') });
    expect(await givesTheEventLoopATurn(() => world.promoter.run())).toBe(true);
  });

  describe('with two Products', () => {
    /** beta/cart beside alpha/shop, both with `b` in dev to promote into uat. */
    function twoProducts() {
      const world = autoWorld({ dev: digest('b'), uat: digest('a'), prod: digest('a') });
      const { repo, config, argo } = world;
      repo.commit(
        Object.fromEntries(
          ['dev', 'uat', 'prod'].flatMap(stage => [
            [releasePath(config, CART, stage), releaseFile(stage, { api: digest(stage === 'dev' ? 'b' : 'a') })],
            [environmentPath(config, CART, stage), environmentFile(stage, ['api'])],
          ]),
        ),
      );
      world.runAsReleased();
      for (const stage of ['dev', 'uat', 'prod']) {
        argo.runs(CART, stage, { api: digest(stage === 'dev' ? 'b' : 'a') }, repo.branchHead()!);
      }
      return world;
    }

    it('looks only at the Products it is told to (a webhook said their files changed)', async () => {
      const { promoter, repo } = twoProducts();

      const run = await promoter.run({ only: [CART] });

      expect(run).toMatchObject({ products: 1, opened: [{ product: 'beta/cart', toStage: 'uat', pullRequest: 1 }] });
      expect(repo.pullRequests()).toHaveLength(1);
    });

    it('opens the others when GitHub fails opening one’s promotion, and records why that one did not climb', async () => {
      const { promoter, repo, store, proposed } = twoProducts();
      repo.failNext('createBranch', { status: 502 });

      const run = await promoter.run();

      expect(run.opened).toEqual([
        { product: 'alpha/shop', toStage: 'uat', pullRequest: 0 },
        { product: 'beta/cart', toStage: 'uat', pullRequest: 1 },
      ]);
      expect(proposed(1, 'uat', CART)).toBe(digest('b'));
      expect(await store.get(run.queued[0].promotionId)).toMatchObject({
        status: 'failed',
        statusReason: expect.stringMatching(/^Could not open the Release PR: .*HTTP 502/),
      });
    });

    it('records why a Product did not climb when its promotion cannot even be requested', async () => {
      const { promoter, store, autoDecisions } = twoProducts();
      jest.spyOn(store, 'insertLive').mockRejectedValueOnce(new Error('database is locked'));

      const run = await promoter.run();

      expect(run.opened).toEqual([{ product: 'beta/cart', toStage: 'uat', pullRequest: 1 }]);
      expect(await autoDecisions.latest(SHOP)).toMatchObject([
        { toStage: 'uat', decision: 'skip', reason: 'could not request the promotion: database is locked' },
      ]);
    });

    it("promotes the others when one Product's Release record is malformed, and says which and why", async () => {
      const world = twoProducts();
      world.repo.commit({ [releasePath(world.config, SHOP, 'dev')]: 'apiVersion: platform.refplat.org/v1beta1\nkind: Release\nspec: [services' });

      const run = await world.promoter.run();

      expect(run.opened).toEqual([{ product: 'beta/cart', toStage: 'uat', pullRequest: 1 }]);
      expect(run.decisions).toEqual([
        expect.objectContaining({
          product: 'alpha/shop',
          toStage: 'uat',
          decision: 'skip',
          reason: expect.stringMatching(/^dev's Release could not be read: gitops\/releases\/alpha\/shop\/dev\.yaml: not valid YAML: /),
        }),
        expect.objectContaining({ product: 'beta/cart', toStage: 'uat', decision: 'promote' }),
      ]);
      expect(await world.autoDecisions.latest(SHOP)).toEqual([expect.objectContaining({ decision: 'skip', reason: run.decisions[0].reason })]);
    });

    it('decides the Products side by side: one whose reads are slow does not hold up the other', async () => {
      const world = twoProducts();
      let cartReached!: () => void;
      const cartRead = new Promise<void>(resolve => {
        cartReached = resolve;
      });
      const shopWaitsForCart: HoldStore = {
        ...world.holds,
        place: world.holds.place.bind(world.holds),
        lift: world.holds.lift.bind(world.holds),
        listLive: async product => {
          // One after the other, alpha/shop would wait here for ever.
          if (product.team === SHOP.team) await cartRead;
          else cartReached();
          return world.holds.listLive(product);
        },
      };

      const run = await climb(world, world.autoPromoter({ holds: shopWaitsForCart }));

      expect(run.opened.map(opened => opened.product).sort()).toEqual(['alpha/shop', 'beta/cart']);
      expect(run.decisions.map(decision => decision.product)).toEqual(['alpha/shop', 'beta/cart']);
    });

    it('promotes the others when one Product cannot be judged at all', async () => {
      const world = twoProducts();
      const failing: HoldStore = {
        ...world.holds,
        place: world.holds.place.bind(world.holds),
        lift: world.holds.lift.bind(world.holds),
        listLive: async product => {
          if (product.team === SHOP.team) throw new Error('database is locked');
          return world.holds.listLive(product);
        },
      };

      const run = await climb(world, world.autoPromoter({ holds: failing }));

      expect(run.opened).toEqual([{ product: 'beta/cart', toStage: 'uat', pullRequest: 1 }]);
      expect(world.logger.warn).toHaveBeenCalledWith('Auto-promoter skipped alpha/shop: Error: database is locked');
    });
  });
});
