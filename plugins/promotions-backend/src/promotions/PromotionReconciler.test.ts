import { InMemoryPromotionStore } from '@refplat/plugin-promotions-node/testUtils';
import { digest, promotionsWorld } from './__testUtils__/promotionsWorld';
import { PromotionOpener } from './PromotionOpener';
import { PromotionReconciler } from './PromotionReconciler';
import { BRANCH_PREFIX } from './pullRequestText';

describe('PromotionReconciler', () => {
  it('closes an open plugin PR that no live promotion owns, and deletes its branch', async () => {
    const { request, reconciler, store, repo } = promotionsWorld();
    const promotion = await request('uat', { api: digest('b') });
    await store.transition(promotion.id, {}, { status: 'failed', statusReason: 'gone' });

    await reconciler.reconcile();

    expect(await repo.getPullRequest(1)).toMatchObject({ state: 'closed', merged: false });
    expect(repo.commentsOn(1)).toEqual([
      'Closed by the promotions Gate: no live promotion owns this pull request (its promotion ended, failed or was superseded).',
    ]);
    expect(repo.branchHead(promotion.branch!)).toBeUndefined();
  });

  it('finishes the openings whose lease ended, and only those: one failed (no PR on GitHub), one still running left alone', async () => {
    const { request, reconciler, store, clock, repo } = promotionsWorld();
    // Recorded with their leases (30 s), never opened: their requests stopped.
    const stopped = await request('uat', { api: digest('b') }, { open: false });
    clock.advance({ seconds: 20 });
    const running = await request('prod', { api: digest('a') }, { open: false });
    clock.advance({ seconds: 11 });

    expect(await reconciler.finishAbandonedOpenings()).toBe(1);

    expect(await store.get(stopped.id)).toMatchObject({ status: 'failed' });
    expect(await store.get(running.id)).toMatchObject({ status: running.status, pullRequest: { number: 0 } });
    expect(repo.pullRequests()).toEqual([]);
    expect(await reconciler.finishAbandonedOpenings()).toBe(0);
  });

  it('keeps the PRs of live promotions and their branches', async () => {
    const { request, reconciler, repo, clock } = promotionsWorld();
    const promotion = await request('uat', { api: digest('b') });
    clock.advance({ hours: 1 });

    await reconciler.reconcile();

    expect(await repo.getPullRequest(1)).toMatchObject({ state: 'open' });
    expect(repo.branchHead(promotion.branch!)).toBeDefined();
  });

  it('restores a promotion the database lost from its open PR, and adopts the PR', async () => {
    const world = promotionsWorld();
    const lost = await world.request('uat', { api: digest('b') });
    // The backend restarts on an empty in-memory database.
    const store = new InMemoryPromotionStore({ clock: world.clock });
    const opener = new PromotionOpener({ ...world, store, writer: world.repo, names: world.directory });
    const reconciler = new PromotionReconciler({ ...world, store, writer: world.repo, opener });

    await reconciler.reconcile();

    const [restored] = await store.listLive();
    expect(restored).toMatchObject({
      id: lost.id,
      toStage: 'uat',
      services: { api: digest('b') },
      status: 'open',
      branch: lost.branch,
      pullRequest: { number: 1 },
    });
    // "from → to" as before the restart: the PR body lists the digests it replaces, whole.
    expect(lost.previousServices?.api).toMatch(/^sha256:/);
    expect(restored.previousServices).toEqual({ api: lost.previousServices!.api });
    expect(await world.repo.getPullRequest(1)).toMatchObject({ state: 'open' });
    expect(world.logger.warn).toHaveBeenCalledWith(expect.stringMatching(/^Restored promotion .* from PR #1/));
  });

  it('deletes an idle promotions branch only after the grace period, sweeping at most once per interval', async () => {
    const { reconciler, repo, clock } = promotionsWorld();
    const branch = `${BRANCH_PREFIX}alpha-shop-uat-leftover`;
    repo.commit({ 'x.yaml': 'left behind' }, { branch });

    await reconciler.reconcile();
    expect(repo.branchHead(branch)).toBeDefined();

    clock.advance({ seconds: 599 });
    await reconciler.reconcile();
    expect(repo.branchHead(branch)).toBeDefined();

    // The grace period has passed, but the last sweep was a second ago: the next one waits out the lease.
    clock.advance({ seconds: 1 });
    const sweeps = () => repo.calls.filter(call => call === 'listBranches').length;
    const swept = sweeps();
    await reconciler.reconcile();
    expect(sweeps()).toBe(swept);
    expect(repo.branchHead(branch)).toBeDefined();

    clock.advance({ seconds: 59 });
    await reconciler.reconcile();
    expect(sweeps()).toBe(swept + 1);
    expect(repo.branchHead(branch)).toBeUndefined();
  });

  it("keeps a branch and PR whose listing failed for the next sweep, and a branch's grace from its promotion's end", async () => {
    const { request, reconciler, store, repo, clock } = promotionsWorld();
    const promotion = await request('uat', { api: digest('b') });
    clock.advance({ hours: 1 });
    await store.transition(promotion.id, {}, { status: 'closed', statusReason: 'closed by hand' });
    repo.closeByHand(1);
    repo.failNext('listBranches', { status: 503 });

    await expect(reconciler.reconcile()).rejects.toThrow(/HTTP 503/);
    clock.advance({ minutes: 1 });
    await reconciler.reconcile();
    expect(repo.branchHead(promotion.branch!)).toBeDefined();

    clock.advance({ minutes: 10 });
    await reconciler.reconcile();
    expect(repo.branchHead(promotion.branch!)).toBeUndefined();
  });
});
