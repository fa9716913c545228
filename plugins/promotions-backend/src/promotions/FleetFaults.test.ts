import { digest } from './__testUtils__/promotionsWorld';
import { fleetWorld } from './__testUtils__/fleetWorld';

/**
 * Fleet mode when GitHub fails, answers nothing, refuses for its rate limit or is slow, at each
 * write of the fleet's opening and merging: no Product merges on a judgement GitHub did not
 * carry out, none is lost, and no branch is left behind.
 */
describe('fleet mode under faults', () => {
  const statuses = async (world: Awaited<ReturnType<typeof fleetWorld>>) =>
    Promise.all(world.run.queued.map(async q => (await world.store.get(q.promotionId))!));

  it('GitHub failing the commit fails every Product saying why, and leaves no branch', async () => {
    const world = await fleetWorld();
    world.repo.failNext('commitFiles', { status: 500, message: 'Internal Server Error' });

    expect(await world.queue.drain()).toEqual({ opened: 0, dropped: 0, failed: 3, unanswered: 0 });

    const records = await statuses(world);
    for (const record of records) {
      expect(record).toMatchObject({ status: 'failed', statusReason: expect.stringMatching(/^Could not open the fleet Release PR: .*HTTP 500/) });
      expect(world.repo.branchHead(record.branch!)).toBeUndefined();
    }
    expect(world.repo.pullRequests()).toEqual([]);
  });

  it('a commit whose answer was lost (written all the same) fails each Product once its lease runs out, and its branch goes', async () => {
    const world = await fleetWorld();
    world.repo.failNext('commitFiles', { status: 504, unanswered: true, applied: true });

    expect(await world.queue.drain()).toEqual({ opened: 0, dropped: 0, failed: 0, unanswered: 3 });
    const [first] = await statuses(world);
    expect(world.repo.branchHead(first.branch!)).toBeDefined();
    // While the lease runs, the opener may still be at work: nothing is judged abandoned.
    const gate = world.gate();
    for (const q of world.run.queued) await gate.check(q.promotionId);
    for (const record of await statuses(world)) expect(record).toMatchObject({ status: 'open', pullRequest: {} });

    world.clock.advance({ seconds: world.config.gate.openingLeaseSeconds + 1 });
    for (const q of world.run.queued) await gate.check(q.promotionId);

    for (const record of await statuses(world)) {
      expect(record).toMatchObject({ status: 'failed', statusReason: expect.stringContaining('its lease ran out and GitHub has no PR for it') });
    }
    expect(world.repo.branchHead(first.branch!)).toBeUndefined();
  });

  it('a PR whose opening answer was lost is adopted Product by Product through its markers, then merged', async () => {
    const world = await fleetWorld();
    world.repo.failNext('openPullRequest', { status: 504, unanswered: true, applied: true });

    expect(await world.queue.drain()).toEqual({ opened: 0, dropped: 0, failed: 0, unanswered: 3 });
    const [pr] = world.repo.pullRequests();
    world.clock.advance({ seconds: world.config.gate.openingLeaseSeconds + 1 });
    const gate = world.gate();
    for (const q of world.run.queued) await gate.check(q.promotionId);

    for (const record of await statuses(world)) expect(record).toMatchObject({ status: 'open', pullRequest: { number: pr.number } });
    await world.fleetGate.check(pr.number);
    expect(world.repo.pullRequests()[0]).toMatchObject({ merged: true });
    for (const record of await statuses(world)) expect(record.status).toBe('merged');
  });

  it("GitHub's rate limit refusing the commit puts every Product back in the queue, and the next drain opens one PR for them", async () => {
    const world = await fleetWorld();
    world.repo.failNext('commitFiles', { status: 403, message: 'You have exceeded a secondary rate limit', retryAfterSeconds: 60 });

    const paused = await world.queue.drain();

    expect(paused.opened).toBe(0);
    expect(paused.failed).toBe(0);
    for (const record of await statuses(world)) expect(record).toMatchObject({ status: 'open', pullRequest: {}, queuedAt: expect.any(String) });
    expect(world.repo.pullRequests()).toEqual([]);

    world.clock.advance({ seconds: 61 });
    expect(await world.queue.drain()).toEqual({ opened: 3, dropped: 0, failed: 0, unanswered: 0 });
    expect(world.repo.pullRequests()).toHaveLength(1);
  });

  it('a commit so slow that every lease ran out and the Gate failed the Products opens no PR and deletes its branch', async () => {
    const world = await fleetWorld();
    const { repo, clock, config } = world;
    const commit = repo.commitFiles.bind(repo);
    const gate = world.gate();
    jest.spyOn(repo, 'commitFiles').mockImplementationOnce(async input => {
      // While GitHub takes its time, the leases run out and the Gate takes the opener for stopped.
      clock.advance({ seconds: config.gate.openingLeaseSeconds + 1 });
      for (const q of world.run.queued) await gate.check(q.promotionId);
      return commit(input);
    });

    expect(await world.queue.drain()).toMatchObject({ opened: 0, failed: 3 });

    expect(repo.pullRequests()).toEqual([]);
    const records = await statuses(world);
    for (const record of records) expect(record.status).toBe('failed');
    expect(repo.branchHead(records[0].branch!)).toBeUndefined();
  });

  it('a take-out commit GitHub fails merges nothing and closes no one; the next look takes the Product out and merges the rest', async () => {
    const world = await fleetWorld();
    const { repo, queue, fleetGate, released } = world;
    await queue.drain();
    const [pr] = repo.pullRequests();
    world.degradeCartDev();
    repo.failNext('commitFiles', { status: 502, message: 'Bad Gateway' });

    await fleetGate.check(pr.number);

    expect(repo.pullRequests()[0]).toMatchObject({ state: 'open', merged: false });
    for (const record of await statuses(world)) expect(record.status).toBe('open');
    expect(world.logger.warn).toHaveBeenCalledWith(expect.stringMatching(`Gate could not check fleet PR #${pr.number}: .*HTTP 502`));

    await fleetGate.check(pr.number);

    expect(repo.pullRequests()[0]).toMatchObject({ merged: true });
    expect(released({ team: 'beta', product: 'cart' }, 'uat')).toBe(digest('a'));
    expect(released({ team: 'alpha', product: 'shop' }, 'uat')).toBe(digest('b'));
  });

  it('a merge GitHub fails after a take-out records no Product merged; the next look merges the PR as it stands', async () => {
    const world = await fleetWorld();
    const { repo, queue, fleetGate, released } = world;
    await queue.drain();
    const [pr] = repo.pullRequests();
    world.degradeCartDev();
    repo.failNext('mergePullRequest', { status: 502, message: 'Bad Gateway' });

    await fleetGate.check(pr.number);

    expect(repo.pullRequests()[0]).toMatchObject({ state: 'open', merged: false });
    const byProduct = Object.fromEntries((await statuses(world)).map(record => [`${record.team}/${record.product}`, record.status]));
    expect(byProduct).toEqual({ 'alpha/shop': 'open', 'beta/cart': 'closed', 'gamma/pay': 'open' });

    await fleetGate.check(pr.number);

    expect(repo.pullRequests()[0]).toMatchObject({ merged: true });
    expect(released({ team: 'gamma', product: 'pay' }, 'uat')).toBe(digest('b'));
    expect(released({ team: 'beta', product: 'cart' }, 'uat')).toBe(digest('a'));
    expect(repo.calls.filter(call => call === 'commitFiles')).toHaveLength(2);
  });

  it('a merge whose answer was lost (merged all the same) is recorded merged on the next look, for every Product', async () => {
    const world = await fleetWorld();
    const { repo, queue, fleetGate } = world;
    await queue.drain();
    const [pr] = repo.pullRequests();
    repo.failNext('mergePullRequest', { status: 504, unanswered: true, applied: true });

    await fleetGate.check(pr.number);
    for (const record of await statuses(world)) expect(record.status).toBe('open');

    await fleetGate.check(pr.number);

    for (const record of await statuses(world)) expect(record).toMatchObject({ status: 'merged', statusReason: expect.stringMatching(/^Merged on GitHub/) });
  });
});
