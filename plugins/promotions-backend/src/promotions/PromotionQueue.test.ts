import { releasePath } from '../ladder/readProductRecords';
import { SHOP, digest, promotionsWorld, releaseFile } from './__testUtils__/promotionsWorld';
import { PromotionQueue } from './PromotionQueue';

const BOB = 'user:default/bob';

/** alpha/shop with `b` in dev, healthy, to climb into uat; the auto-promoter has queued it. */
async function queuedWorld() {
  const world = promotionsWorld();
  world.runAsReleased();
  const run = await world.autoPromoter().run();
  const [queued] = run.queued;
  return { ...world, run, promotionId: queued.promotionId };
}

/** `c` in dev and `b` in test, both healthy, to climb a rung each: the auto-promoter queued uat's, then test's. */
async function twoRungsQueued() {
  const world = promotionsWorld({
    releases: { dev: { api: digest('c') }, test: { api: digest('b') }, uat: { api: digest('a') }, prod: { api: digest('a') } },
    config: { stages: ['dev', 'test', 'uat', 'prod'] },
  });
  world.runAsReleased();
  const run = await world.autoPromoter().run();
  return { ...world, run };
}

describe('PromotionQueue', () => {
  it("says when its next PR opens while GitHub's hourly write limit holds it, and why", async () => {
    const world = await queuedWorld();
    const spent = { remainingThisMinute: 0, remainingThisHour: 0, nextOpeningInMs: 42 * 60_000 };
    const queue = new PromotionQueue({ ...world, opener: world.opener, files: world.repo, writeBudget: () => spent });

    expect(await queue.state()).toEqual({
      waiting: 1,
      oldestQueuedAt: '2026-01-01T00:00:00.000Z',
      waitingFor: 'github-hourly-write-limit',
      opensAt: '2026-01-01T00:42:00.000Z',
    });
  });

  it('takes an auto-promotion off the request path: the run writes nothing to GitHub, the drain opens its PR', async () => {
    const { repo, store, run, promotionId, writeQueue, changed } = await queuedWorld();

    expect(run.queued).toEqual([{ product: 'alpha/shop', toStage: 'uat', promotionId }]);
    expect(repo.pullRequests()).toEqual([]);
    const queued = await store.get(promotionId);
    expect(queued).toMatchObject({ status: 'open', queuedAt: '2026-01-01T00:00:00.000Z', pullRequest: { number: 0 } });
    // Nobody holds it: a queued promotion is not one an opener died on.
    expect(queued!.leaseExpiresAt).toBeUndefined();
    expect(await writeQueue.state()).toEqual({ waiting: 1, oldestQueuedAt: '2026-01-01T00:00:00.000Z', waitingFor: 'turn' });

    expect(await writeQueue.drain()).toEqual({ opened: 1, dropped: 0, failed: 0, unanswered: 0 });

    expect(repo.pullRequests()).toMatchObject([{ number: 1, state: 'open' }]);
    expect(await store.get(promotionId)).toMatchObject({ pullRequest: { number: 1 }, queuedAt: undefined, leaseExpiresAt: undefined });
    expect(changed).toEqual([promotionId]);
    expect(await writeQueue.state()).toEqual({ waiting: 0 });
    expect(await writeQueue.drain()).toEqual({ opened: 0, dropped: 0, failed: 0, unanswered: 0 });
  });

  it('drops a promotion whose target Release changed while it waited, opening nothing for it', async () => {
    const { repo, store, config, promotionId, writeQueue } = await queuedWorld();
    repo.commit({ [releasePath(config, SHOP, 'uat')]: releaseFile('uat', { api: digest('c') }) });

    expect(await writeQueue.drain()).toEqual({ opened: 0, dropped: 1, failed: 0, unanswered: 0 });

    expect(repo.pullRequests()).toEqual([]);
    expect(await store.get(promotionId)).toMatchObject({
      status: 'closed',
      statusReason: "uat's Release record changed while the promotion waited in the write queue; the auto-promoter decides again",
    });
  });

  it('keeps a promotion in its place when GitHub cannot be read, and opens it once on the next drain', async () => {
    const { repo, store, promotionId, writeQueue } = await queuedWorld();
    repo.failNext('headCommit', { status: 503 });

    expect(await writeQueue.drain()).toEqual({ opened: 0, dropped: 0, failed: 0, unanswered: 0 });
    expect(await store.get(promotionId)).toMatchObject({ queuedAt: '2026-01-01T00:00:00.000Z', leaseExpiresAt: undefined, pullRequest: { number: 0 } });
    expect(repo.pullRequests()).toEqual([]);

    expect(await writeQueue.drain()).toEqual({ opened: 1, dropped: 0, failed: 0, unanswered: 0 });
    expect(repo.pullRequests()).toHaveLength(1);
  });

  it("pauses on GitHub's secondary rate limit mid-way through a bulk run, losing and duplicating nothing, and resumes on the next drain", async () => {
    const { run, ...world } = await twoRungsQueued();
    const [uat, test] = run.queued.map(q => q.promotionId);
    const firstBranch = (await world.store.get(uat))!.branch;
    world.repo.failNext('commitFile', { status: 403, retryAfterSeconds: 60, message: 'You have exceeded a secondary rate limit' });

    expect(await world.writeQueue.drain()).toEqual({ opened: 0, dropped: 0, failed: 0, unanswered: 0 });

    expect(world.repo.pullRequests()).toEqual([]);
    const waiting = await world.store.get(uat);
    expect(waiting).toMatchObject({ status: 'open', queuedAt: '2026-01-01T00:00:00.000Z', pullRequest: { number: 0 } });
    expect(waiting!.branch).not.toBe(firstBranch);
    expect(await world.store.get(test)).toMatchObject({ status: 'open', queuedAt: '2026-01-01T00:00:00.000Z' });
    expect(world.logger.warn).toHaveBeenCalledWith(expect.stringMatching(/^Write queue paused: GitHub's rate limit refused opening promotion .* \(GitHub asks to wait 60 s\)/));

    expect(await world.writeQueue.drain()).toEqual({ opened: 2, dropped: 0, failed: 0, unanswered: 0 });
    expect(world.repo.pullRequests().map(pr => pr.headRef)).toEqual([waiting!.branch, (await world.store.get(test))!.branch]);
    expect((await world.store.get(uat))!.pullRequest.number).toBe(1);
    expect((await world.store.get(test))!.pullRequest.number).toBe(2);
  });

  it('goes on past a promotion whose PR GitHub did not answer, leaving that one to the reconciler', async () => {
    const { run, ...world } = await twoRungsQueued();
    const [uat, test] = run.queued.map(q => q.promotionId);
    world.repo.failNext('openPullRequest', { status: 0, unanswered: true, applied: true });

    expect(await world.writeQueue.drain()).toEqual({ opened: 1, dropped: 0, failed: 0, unanswered: 1 });

    expect(await world.store.get(uat)).toMatchObject({ status: 'open', pullRequest: { number: 0 }, queuedAt: undefined });
    expect(await world.store.get(test)).toMatchObject({ status: 'open', pullRequest: { number: 2 } });
    world.clock.advance({ seconds: 60 });
    await world.reconciler.reconcile();
    expect(await world.store.get(uat)).toMatchObject({ status: 'open', pullRequest: { number: 1 } });
    expect(world.repo.pullRequests()).toHaveLength(2);
  });

  it("opens a queued promotion at once when a person asks for the same one, and the queue then has nothing to do", async () => {
    const { repo, promotionService, promotionId, writeQueue } = await queuedWorld();

    const outcome = await promotionService().request(SHOP, { toStage: 'uat' }, BOB);

    expect(outcome).toMatchObject({ existing: true, promotion: { id: promotionId, pullRequest: { number: 1 }, queuedAt: undefined } });
    expect(await writeQueue.drain()).toEqual({ opened: 0, dropped: 0, failed: 0, unanswered: 0 });
    expect(repo.pullRequests()).toHaveLength(1);
  });

  it("replaces a queued promotion planned on a Release that has changed since, when a person asks for the same digests", async () => {
    const { repo, store, config, promotionService, promotionId, writeQueue, runAsReleased } = await queuedWorld();
    repo.commit({ [releasePath(config, SHOP, 'uat')]: releaseFile('uat', { api: digest('c') }) });
    runAsReleased();

    const outcome = await promotionService().request(SHOP, { toStage: 'uat' }, BOB);

    expect(outcome).toMatchObject({ existing: false, promotion: { services: { api: digest('b') }, pullRequest: { number: 1 } } });
    expect(outcome.promotion.id).not.toBe(promotionId);
    expect(await store.get(promotionId)).toMatchObject({ status: 'closed' });
    expect(await writeQueue.drain()).toEqual({ opened: 0, dropped: 0, failed: 0, unanswered: 0 });
    expect(repo.pullRequests()).toHaveLength(1);
  });

  it("lets a person's different request replace a queued promotion, which then never opens", async () => {
    const { repo, store, config, promotionService, promotionId, writeQueue, runAsReleased } = await queuedWorld();
    repo.commit({ [releasePath(config, SHOP, 'dev')]: releaseFile('dev', { api: digest('c') }) });
    runAsReleased();

    const outcome = await promotionService().request(SHOP, { toStage: 'uat' }, BOB);

    expect(await store.get(promotionId)).toMatchObject({ status: 'closed', statusReason: 'Superseded by a newer promotion request' });
    expect(await writeQueue.drain()).toEqual({ opened: 0, dropped: 0, failed: 0, unanswered: 0 });
    expect(repo.pullRequests()).toMatchObject([{ number: outcome.promotion.pullRequest.number }]);
    expect(repo.pullRequests()).toHaveLength(1);
  });

  it('opens each promotion once when two replicas drain the same queue at once', async () => {
    const { run, ...world } = await twoRungsQueued();
    expect(run.queued.map(q => q.toStage)).toEqual(['uat', 'test']);
    const replica = new PromotionQueue({ config: world.config, store: world.store, opener: world.opener, files: world.repo, logger: world.logger });

    const [one, other] = await Promise.all([world.writeQueue.drain(), replica.drain()]);

    expect(one.opened + other.opened).toBe(2);
    expect(world.repo.pullRequests().map(pr => pr.headRef)).toEqual([
      expect.stringMatching(/^promotions\/alpha-shop-uat-/),
      expect.stringMatching(/^promotions\/alpha-shop-test-/),
    ]);
  });

  it('joins a drain already running in the process, and looks again for what was queued meanwhile', async () => {
    const { writeQueue, repo } = await queuedWorld();

    const [first, joined] = await Promise.all([writeQueue.drain(), writeQueue.drain()]);

    expect(joined).toBe(first);
    expect(first.opened).toBe(1);
    expect(repo.pullRequests()).toHaveLength(1);
  });
});
