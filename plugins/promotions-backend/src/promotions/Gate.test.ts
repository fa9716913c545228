import { GuardContext, GuardVerdict } from '@refplat/plugin-promotions-common';
import type { PlatformRepoMethod } from '@refplat/plugin-promotions-node/testUtils';
import { PromotionGuards } from '../guards/PromotionGuards';
import { releasePath } from '../ladder/readProductRecords';
import { SHOP, digest, promotionsWorld, releaseFile } from './__testUtils__/promotionsWorld';
import { APPROVAL_CONTEXT } from './ApprovalService';
import { AUTO_PROMOTER } from './AutoPromoter';
import { HEALTH_CONTEXT } from './Gate';
import { GATE_ACTOR } from './mergeSettlement';

/** The port's methods that are GitHub writes (content-generating requests). */
const PLATFORM_REPO_WRITES: PlatformRepoMethod[] = [
  'createBranch',
  'deleteBranch',
  'commitFile',
  'openPullRequest',
  'addLabels',
  'mergePullRequest',
  'closePullRequest',
  'comment',
  'setStatus',
];

/** A world with a Gate; `guard` (when given) is asked before every merge. */
function gateWorld(guard?: (context: GuardContext) => GuardVerdict) {
  const world = promotionsWorld();
  const guards = guard
    ? new PromotionGuards([{ name: 'change-window', evaluate: async (_promotion, context) => guard(context) }], world.logger)
    : undefined;
  const gate = world.gate(guards);
  const uatRelease = () => world.repo.fileAt('main', releasePath(world.config, SHOP, 'uat'));
  const eventsOf = async (id: string) => (await world.store.listEvents(id)).map(event => event.type);
  return { ...world, gate, uatRelease, eventsOf };
}

describe('Gate', () => {
  it('merges a promotion once the stage below runs its digests healthy, saying why in the merge commit', async () => {
    const { gate, request, store, repo, config, uatRelease, eventsOf } = gateWorld();
    const promotion = await request('uat', { api: digest('b') });

    await gate.checkAll();

    expect(await store.get(promotion.id)).toMatchObject({ status: 'merged' });
    expect(uatRelease()).toBe(releaseFile('uat', { api: digest('b') }));
    // Merged in the run that found dev healthy: no status write says it may merge.
    expect(repo.statusesOf(promotion.headSha!)).toEqual([]);
    const [merge] = await repo.listCommits(releasePath(config, SHOP, 'uat'), 1);
    expect(merge.message).toBe(
      `Promote api dev → uat (alpha/shop) (#${promotion.pullRequest.number})\n\nMerged by the promotions Gate: dev is Synced, Healthy and running these digests.`,
    );
    expect(repo.branchHead(promotion.branch!)).toBeUndefined();
    expect(await eventsOf(promotion.id)).toEqual(['requested', 'pr-opened', 'checks-passed', 'merged']);
    expect((await store.listEvents(promotion.id)).at(-1)).toMatchObject({ actor: GATE_ACTOR });
  });

  it('makes four GitHub writes for an auto-promoter promotion: branch, commit, PR, merge', async () => {
    const world = promotionsWorld({ deleteBranchOnMerge: true });
    const gate = world.gate();
    const promotion = await world.request('uat', { api: digest('b') }, { requestedBy: AUTO_PROMOTER });

    await gate.checkAll();

    expect(await world.store.get(promotion.id)).toMatchObject({ status: 'merged' });
    expect(world.repo.calls.filter(call => PLATFORM_REPO_WRITES.includes(call))).toEqual([
      'createBranch',
      'commitFile',
      'openPullRequest',
      'mergePullRequest',
    ]);
  });

  it("merges the head it wrote after reading only the base's Release from the snapshot: no compare, no file read", async () => {
    const { gate, request, store, repo } = gateWorld();
    const promotion = await request('uat', { api: digest('b') });
    repo.calls.length = 0;

    await gate.checkAll();

    expect(await store.get(promotion.id)).toMatchObject({ status: 'merged' });
    expect(repo.calls).not.toContain('changedFiles');
    // readFile is the port's readFileIfPresent when it records its calls.
    expect(repo.calls).not.toContain('readFileIfPresent');
  });

  it("verifies a head someone else pushed by its Release blob from the comparison: GitHub's compare is the one read", async () => {
    const { gate, request, store, repo, config } = gateWorld();
    const promotion = await request('uat', { api: digest('b') });
    const path = releasePath(config, SHOP, 'uat');
    const pushed = repo.commit({ [path]: repo.fileAt(promotion.branch!, path)! }, { branch: promotion.branch });
    repo.calls.length = 0;

    await gate.checkAll();

    expect(await store.get(promotion.id)).toMatchObject({ status: 'merged', headSha: pushed });
    expect(repo.calls.filter(call => call === 'changedFiles')).toEqual(['changedFiles']);
    expect(repo.calls).not.toContain('readFileIfPresent');
  });

  it('checks a PR a request just opened from the answer to its creation, without reading it again', async () => {
    const world = promotionsWorld();
    const gate = world.gate();
    const record = await world.request('uat', { api: digest('b') }, { open: false });
    const { promotion, pullRequest } = await world.opener.openPullRequest(record, (await world.repo.headCommit())!, false);
    world.repo.calls.length = 0;

    await gate.check(promotion.id, new Map([[pullRequest.number, pullRequest]]));

    expect(await world.store.get(promotion.id)).toMatchObject({ status: 'merged' });
    expect(world.repo.calls).not.toContain('getPullRequest');
  });

  it('leaves the branch to a repository that deletes merged branches itself: one write fewer', async () => {
    const world = promotionsWorld({ deleteBranchOnMerge: true });
    const gate = world.gate();
    const promotion = await world.request('uat', { api: digest('b') });
    world.repo.calls.length = 0;

    await gate.checkAll();

    expect(await world.store.get(promotion.id)).toMatchObject({ status: 'merged' });
    expect(world.repo.branchHead(promotion.branch!)).toBeUndefined();
    expect(world.repo.calls).toContain('mergePullRequest');
    expect(world.repo.calls).not.toContain('deleteBranch');
  });

  describe("the base branch's required status checks", () => {
    const writesOf = (calls: PlatformRepoMethod[]) => calls.filter(call => PLATFORM_REPO_WRITES.includes(call));

    it('writes the promotions/health status a branch protection requires before merging, and no other', async () => {
      const { gate, request, store, repo } = gateWorld();
      repo.requireStatusChecks([HEALTH_CONTEXT]);
      const promotion = await request('uat', { api: digest('b') });
      repo.calls.length = 0;

      await gate.checkAll();

      expect(await store.get(promotion.id)).toMatchObject({ status: 'merged' });
      expect(repo.statusesOf(promotion.headSha!)).toEqual([
        expect.objectContaining({ context: HEALTH_CONTEXT, state: 'success' }),
      ]);
      expect(writesOf(repo.calls)).toEqual(['setStatus', 'mergePullRequest', 'deleteBranch']);
    });

    it('writes its statuses before merging when which are required cannot be read', async () => {
      const { gate, request, store, repo } = gateWorld(() => ({ verdict: 'allow', reason: 'inside the change window' }));
      const promotion = await request('uat', { api: digest('b') });
      repo.failNext('requiredStatusChecks', { status: 500 });

      await gate.checkAll();

      expect(await store.get(promotion.id)).toMatchObject({ status: 'merged' });
      expect(Object.keys(repo.latestStatusesOf(promotion.headSha!)).sort()).toEqual(['promotions/guard/change-window', HEALTH_CONTEXT]);
    });

    it('a check made required since it was read: GitHub refuses the merge, the Gate writes it and merges', async () => {
      const { gate, request, store, repo } = gateWorld();
      repo.requireStatusChecks([HEALTH_CONTEXT]);
      // What the Gate read before the protection changed.
      jest.spyOn(repo, 'requiredStatusChecks').mockResolvedValue([]);
      const promotion = await request('uat', { api: digest('b') });
      repo.calls.length = 0;

      await gate.checkAll();

      expect(await store.get(promotion.id)).toMatchObject({ status: 'merged' });
      expect(writesOf(repo.calls)).toEqual(['mergePullRequest', 'setStatus', 'mergePullRequest', 'deleteBranch']);
    });

    it("another's required check not passed (CI): the promotion waits, saying so, and merges once it passes", async () => {
      const { gate, request, store, repo } = gateWorld();
      repo.requireStatusChecks(['ci/build']);
      const promotion = await request('uat', { api: digest('b') });

      await gate.checkAll();

      expect(await store.get(promotion.id)).toMatchObject({
        status: 'open',
        statusReason: expect.stringContaining('Required status check "ci/build" is expected.'),
      });
      await repo.setStatus({ sha: promotion.headSha!, context: 'ci/build', state: 'success', description: 'built' });
      await gate.checkAll();

      expect(await store.get(promotion.id)).toMatchObject({ status: 'merged' });
    });
  });

  it('waits while the stage below is progressing, writing no status until the verdict is known, and merges with none', async () => {
    const { gate, request, store, repo, health, eventsOf } = gateWorld();
    health.dev = 'progressing';
    const promotion = await request('uat', { api: digest('b') });

    await gate.checkAll();
    await gate.checkAll();

    expect(await store.get(promotion.id)).toMatchObject({
      status: 'open',
      healthState: { state: 'pending', sha: promotion.headSha, description: 'dev not ready: api: api is progressing' },
    });
    // Pending is no verdict yet: no commit status (issue 48: one per PR, not pending-then-success).
    expect(repo.statusesOf(promotion.headSha!)).toEqual([]);
    expect(repo.calls).not.toContain('mergePullRequest');

    health.dev = 'healthy';
    await gate.check(promotion.id);
    expect(await store.get(promotion.id)).toMatchObject({ status: 'merged' });
    expect(repo.statusesOf(promotion.headSha!)).toEqual([]);
    expect(await eventsOf(promotion.id)).toEqual(['requested', 'pr-opened', 'checks-passed', 'merged']);
  });

  it('publishes a failure and keeps the promotion open while the stage below is unhealthy', async () => {
    const { gate, request, store, repo, health, eventsOf } = gateWorld();
    health.dev = 'unhealthy';
    const promotion = await request('uat', { api: digest('b') });

    await gate.checkAll();

    expect(await store.get(promotion.id)).toMatchObject({ status: 'open' });
    expect(repo.latestStatusesOf(promotion.headSha!)[HEALTH_CONTEXT].state).toBe('failure');
    expect(await eventsOf(promotion.id)).toEqual(['requested', 'pr-opened', 'checks-failed']);
  });

  it("hands the stage below of each ladder it reads to the stall notifier, and a notifier's failure does not hold the promotion up", async () => {
    const world = promotionsWorld();
    const seen: string[] = [];
    const gate = world.gate(undefined, async ladder => {
      seen.push(`${ladder.team}/${ladder.product}: ${ladder.stages.map(stage => stage.name).join(', ')}`);
      throw new Error('the notifications service is down');
    });
    const promotion = await world.request('uat', { api: digest('b') });

    await gate.checkAll();

    expect(seen).toEqual(['alpha/shop: dev']);
    expect(await world.store.get(promotion.id)).toMatchObject({ status: 'merged' });
  });

  it('merges a rollback without waiting for the stage below, which it does not come from', async () => {
    const { gate, request, store, repo, config, health, uatRelease } = gateWorld();
    repo.commit({ [releasePath(config, SHOP, 'uat')]: releaseFile('uat', { api: digest('b') }) });
    health.dev = 'unhealthy';
    const rollback = await request('uat', { api: digest('a') }, { kind: 'rollback' });

    await gate.checkAll();

    expect(await store.get(rollback.id)).toMatchObject({ status: 'merged' });
    expect(uatRelease()).toBe(releaseFile('uat', { api: digest('a') }));
    const [merge] = await repo.listCommits(releasePath(config, SHOP, 'uat'), 1);
    expect(merge.message).toMatch(/\n\nMerged by the promotions Gate: Rollback of uat to earlier digests\.$/);
  });

  it('closes the promotion, its PR and branch when the stage below moved on to another digest', async () => {
    const { gate, request, store, repo, config } = gateWorld();
    const promotion = await request('uat', { api: digest('b') });
    repo.commit({ [releasePath(config, SHOP, 'dev')]: releaseFile('dev', { api: digest('c') }) });

    await gate.checkAll();

    const closed = await store.get(promotion.id);
    expect(closed).toMatchObject({ status: 'closed' });
    expect(closed!.statusReason).toMatch(/^dev moved on: api is now sha256:cccc/);
    expect(await repo.getPullRequest(promotion.pullRequest.number)).toMatchObject({ state: 'closed', merged: false });
    expect(repo.commentsOn(promotion.pullRequest.number)).toEqual([`Closed by the promotions Gate: ${closed!.statusReason}.`]);
    expect(repo.branchHead(promotion.branch!)).toBeUndefined();
  });

  it('closes the promotion when the target Release changed on the base branch after its PR was opened', async () => {
    const { gate, request, store, repo, config } = gateWorld();
    const promotion = await request('uat', { api: digest('b') });
    repo.commit({ [releasePath(config, SHOP, 'uat')]: releaseFile('uat', { api: digest('d') }) });

    await gate.checkAll();

    expect(await store.get(promotion.id)).toMatchObject({
      status: 'closed',
      statusReason: "uat's Release record changed on the base branch after this PR was opened; request the promotion again",
    });
  });

  it('holds a prod promotion for approval, merges the approved head, and voids an approval when the head moves', async () => {
    const { gate, request, store, repo, config } = gateWorld();
    repo.commit({ [releasePath(config, SHOP, 'uat')]: releaseFile('uat', { api: digest('b') }) });
    const promotion = await request('prod', { api: digest('b') });
    expect(promotion.status).toBe('awaiting-approval');

    await gate.checkAll();
    expect(await store.get(promotion.id)).toMatchObject({ status: 'awaiting-approval' });
    expect(repo.calls).not.toContain('mergePullRequest');
    // It waits for a person: the PR head tells the approver the stage below is green.
    expect(repo.latestStatusesOf(promotion.headSha!)[HEALTH_CONTEXT]).toMatchObject({ state: 'success' });

    await store.transition(
      promotion.id,
      { status: ['awaiting-approval'] },
      { status: 'approved', approvedBy: 'user:default/carol', approvedSha: promotion.headSha },
    );
    // Someone pushes the same content again: a new head the approval was not given for.
    const path = releasePath(config, SHOP, 'prod');
    const pushed = repo.commit({ [path]: repo.fileAt(promotion.branch!, path)! }, { branch: promotion.branch });

    await gate.checkAll();

    expect(await store.get(promotion.id)).toMatchObject({ status: 'awaiting-approval', headSha: pushed, approvedSha: undefined });
    expect(repo.latestStatusesOf(pushed)[APPROVAL_CONTEXT]).toMatchObject({ state: 'pending' });
    expect(repo.commentsOn(promotion.pullRequest.number)[0]).toMatch(
      new RegExp(`^Approval voided\\. The pull request's head moved to ${pushed.slice(0, 7)} after carol approved`),
    );

    await store.transition(
      promotion.id,
      { status: ['awaiting-approval'] },
      { status: 'approved', approvedBy: 'user:default/carol', approvedSha: pushed },
    );
    await gate.checkAll();
    expect(await store.get(promotion.id)).toMatchObject({ status: 'merged' });
  });

  it("publishes each guard's verdict once, waits while it blocks, and merges once it allows", async () => {
    let verdict: GuardVerdict = { verdict: 'block', reason: 'Outside the change window' };
    const { gate, request, store, repo, eventsOf } = gateWorld(() => verdict);
    const promotion = await request('uat', { api: digest('b') });

    await gate.checkAll();
    await gate.checkAll();

    const context = 'promotions/guard/change-window';
    expect(repo.statusesOf(promotion.headSha!).filter(status => status.context === context)).toEqual([
      expect.objectContaining({ state: 'failure', description: 'Outside the change window' }),
    ]);
    expect(await store.get(promotion.id)).toMatchObject({ status: 'open' });

    verdict = { verdict: 'allow', reason: 'Inside the change window' };
    await gate.checkAll();
    expect(repo.latestStatusesOf(promotion.headSha!)[context].state).toBe('success');
    expect(await store.get(promotion.id)).toMatchObject({ status: 'merged' });
    expect(await eventsOf(promotion.id)).toEqual([
      'requested',
      'pr-opened',
      'checks-passed',
      'guard-verdict',
      'guard-verdict',
      'merged',
    ]);
  });

  it('merging at once, writes no guard status nobody would read again: the verdict is in the trail', async () => {
    const { gate, request, store, repo, eventsOf } = gateWorld(() => ({ verdict: 'allow', reason: 'Inside the change window' }));
    const promotion = await request('uat', { api: digest('b') });

    await gate.checkAll();

    expect(await store.get(promotion.id)).toMatchObject({ status: 'merged' });
    expect(repo.statusesOf(promotion.headSha!)).toEqual([]);
    expect(await eventsOf(promotion.id)).toEqual(['requested', 'pr-opened', 'checks-passed', 'guard-verdict', 'merged']);
  });

  it('asks the guards again just before it merges, and merges nothing they refuse at that moment', async () => {
    // A guard that keeps what it learnt (provenance) checks afresh only before a merge: there the signature is gone.
    const asked: Array<boolean | undefined> = [];
    const { gate, request, store, repo } = gateWorld(context => {
      asked.push(context.beforeMerge);
      return context.beforeMerge
        ? { verdict: 'block', reason: 'api sha256:bbbbbbbbbbbb is not signed' }
        : { verdict: 'allow', reason: 'Every digest is signed and has SLSA provenance' };
    });
    const promotion = await request('uat', { api: digest('b') });

    await gate.checkAll();

    expect(asked).toEqual([undefined, true]);
    expect(await store.get(promotion.id)).toMatchObject({ status: 'open' });
    expect(repo.latestStatusesOf(promotion.headSha!)['promotions/guard/change-window']).toMatchObject({
      state: 'failure',
      description: 'api sha256:bbbbbbbbbbbb is not signed',
    });
  });

  it("asks the guards at the clock's time", async () => {
    const asked: string[] = [];
    const { gate, request, clock } = gateWorld(context => {
      asked.push(context.now.toISOString());
      return { verdict: 'block', reason: 'frozen' };
    });
    await request('uat', { api: digest('b') });
    clock.advance({ hours: 2 });

    await gate.checkAll();

    expect(asked).toEqual(['2026-01-01T02:00:00.000Z']);
  });

  it('makes a promotion a guard wants approved wait for a release-approver', async () => {
    const { gate, request, store } = gateWorld(() => ({ verdict: 'needs-approval', reason: 'Incident INC-1 is open' }));
    const promotion = await request('uat', { api: digest('b') });

    await gate.checkAll();

    expect(await store.get(promotion.id)).toMatchObject({
      status: 'awaiting-approval',
      statusReason: expect.stringMatching(/^Waiting for a release-approver: .*Incident INC-1 is open/),
    });
  });

  it('ends promotions whose PRs were merged or closed by hand on GitHub', async () => {
    const { gate, request, store, repo, health } = gateWorld();
    health.dev = 'progressing';
    const merged = await request('uat', { api: digest('b') });
    repo.mergeByHand(merged.pullRequest.number, 'octocat');
    await gate.checkAll();
    expect(await store.get(merged.id)).toMatchObject({ status: 'merged', statusReason: 'Merged on GitHub by octocat' });

    const closed = await request('prod', { api: digest('b') });
    repo.closeByHand(closed.pullRequest.number);
    await gate.checkAll();
    expect(await store.get(closed.id)).toMatchObject({ status: 'closed', statusReason: 'Pull request closed on GitHub' });
  });

  it('checks once more after the check in flight when asked meanwhile, so a merge by hand it read too early is not missed', async () => {
    const { gate, request, store, repo, health } = gateWorld();
    health.dev = 'unhealthy';
    const promotion = await request('uat', { api: digest('b') });
    // The first check has read the PR and the ladder, and is publishing its verdict, when the PR is merged by hand.
    const setStatus = repo.setStatus.bind(repo);
    let publishing!: () => void;
    const published = new Promise<void>(resolve => (publishing = resolve));
    let resume!: () => void;
    const resumed = new Promise<void>(resolve => (resume = resolve));
    jest.spyOn(repo, 'setStatus').mockImplementationOnce(async status => {
      publishing();
      await resumed;
      return setStatus(status);
    });
    const first = gate.check(promotion.id);
    await published;
    repo.mergeByHand(promotion.pullRequest.number, 'octocat');

    // The webhooks of the merge (push and pull_request) ask while it runs: one more check serves both.
    const afterPush = gate.check(promotion.id);
    const afterPullRequest = gate.check(promotion.id);
    expect(afterPullRequest).toBe(afterPush);
    resume();
    await first;
    expect(await store.get(promotion.id)).toMatchObject({ status: 'open' });
    await afterPush;

    expect(await store.get(promotion.id)).toMatchObject({ status: 'merged', statusReason: 'Merged on GitHub by octocat' });
  });

  it('reads each PR on its own when the list of open PRs fails, and retries a merge GitHub failed at the next run', async () => {
    const { gate, request, store, repo } = gateWorld();
    const promotion = await request('uat', { api: digest('b') });
    repo.failNext('listOpenPullRequests', { status: 502 });
    repo.failNext('mergePullRequest', { status: 500 });

    await gate.checkAll();
    expect(await store.get(promotion.id)).toMatchObject({ status: 'open' });
    expect(repo.calls).toContain('getPullRequest');

    await gate.checkAll();
    expect(await store.get(promotion.id)).toMatchObject({ status: 'merged' });
  });

  it('closes a promotion GitHub cannot merge, saying why', async () => {
    const { gate, request, store, repo } = gateWorld();
    const promotion = await request('uat', { api: digest('b') });
    repo.failNext('mergePullRequest', { status: 405, message: 'Required status check is failing' });

    await gate.checkAll();

    expect(await store.get(promotion.id)).toMatchObject({
      status: 'closed',
      statusReason: 'GitHub cannot merge it (Required status check is failing); request the promotion again',
    });
  });

  it('closes a promotion whose PR head no longer holds exactly the requested change', async () => {
    const { gate, request, store, repo } = gateWorld();
    const promotion = await request('uat', { api: digest('b') });
    const pushed = repo.commit({ 'gitops/releases/alpha/shop/prod.yaml': 'sneaky' }, { branch: promotion.branch });

    await gate.checkAll();

    expect((await store.get(promotion.id))!.statusReason).toMatch(
      new RegExp(`^its content at ${pushed.slice(0, 7)} is not the requested change: `),
    );
  });
});
