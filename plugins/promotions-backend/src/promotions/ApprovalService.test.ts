import { userCredentials } from '../__testUtils__/lightServices';
import { ConflictError, NotAllowedError } from '@backstage/errors';
import { releasePath } from '../ladder/readProductRecords';
import { SHOP, digest, promotionsWorld, releaseFile } from './__testUtils__/promotionsWorld';
import { APPROVAL_CONTEXT } from './ApprovalService';

const RELEASE_APPROVERS = 'group:default/release-approvers';
const [ALICE, BOB, CAROL, DAVE] = ['alice', 'bob', 'carol', 'dave'].map(name => `user:default/${name}`);
const as = (user: string) => userCredentials(user);

/**
 * alice requested a promotion of `b` into prod (awaiting approval); alice,
 * bob and dave are release-approvers, carol is not. `approval` is
 * `promotions.approval`.
 */
async function approvalWorld(approval: object = {}) {
  const world = promotionsWorld({
    config: { approval },
    releases: { dev: { api: digest('b') }, uat: { api: digest('b') }, prod: { api: digest('a') } },
  });
  world.directory
    .setUser(ALICE, { groups: [RELEASE_APPROVERS], name: 'Alice Developer' })
    .setUser(BOB, { groups: [RELEASE_APPROVERS], name: 'Bob Builder' })
    .setUser(CAROL, { groups: ['group:default/developers'], name: 'Carol Coder' })
    .setUser(DAVE, { groups: [RELEASE_APPROVERS], name: 'Dave Deployer' });
  const { approvalService, closer } = world.approvals();
  const promotion = await world.request('prod', { api: digest('b') });
  /** Someone pushes the same content to the PR's branch again: a new head, still exactly the requested change. */
  const pushSameContent = () =>
    world.repo.commit(
      { [releasePath(world.config, SHOP, 'prod')]: releaseFile('prod', { api: digest('b') }) },
      { branch: promotion.branch, author: 'mallory' },
    );
  const gate = world.gate();
  const current = async () => (await world.store.get(promotion.id))!;
  const approve = async (user: string) => approvalService.approve(await current(), as(user));
  return { ...world, approvalService, closer, promotion, pushSameContent, gate, current, approve };
}

describe('ApprovalService', () => {
  it("approves a promotion for its PR's head: the status turns green and a comment names the approver", async () => {
    const { approve, promotion, repo, store } = await approvalWorld();
    expect(promotion.status).toBe('awaiting-approval');

    const approved = await approve(BOB);

    expect(approved).toMatchObject({ status: 'approved', approvedBy: BOB, approvedSha: promotion.headSha });
    expect(await store.get(promotion.id)).toMatchObject({ status: 'approved', approvedSha: promotion.headSha });
    expect(repo.latestStatusesOf(promotion.headSha!)[APPROVAL_CONTEXT]).toMatchObject({
      state: 'success',
      description: 'Approved by Bob Builder',
    });
    expect(repo.commentsOn(promotion.pullRequest.number)).toEqual([
      expect.stringMatching(new RegExp(`^Approved by Bob Builder .* for head ${promotion.headSha}\\.`)),
    ]);
    expect((await store.listEvents(promotion.id)).at(-1)).toMatchObject({ type: 'approved', actor: BOB, detail: promotion.headSha });
  });

  it('answers an approved promotion as it is when approved again', async () => {
    const { approve, store, promotion } = await approvalWorld();
    await approve(BOB);

    expect(await approve(DAVE)).toMatchObject({ status: 'approved', approvedBy: BOB });
    expect((await store.listEvents(promotion.id)).filter(event => event.type === 'approved')).toHaveLength(1);
  });

  it('lets only release-approvers approve', async () => {
    const { approve, current, repo, promotion } = await approvalWorld();

    await expect(approve(CAROL)).rejects.toThrow(NotAllowedError);
    await expect(approve(CAROL)).rejects.toThrow(
      'Carol Coder is not a release-approver: approvals need membership of release-approvers',
    );

    expect(await current()).toMatchObject({ status: 'awaiting-approval' });
    expect(repo.statusesOf(promotion.headSha!)).toEqual([]);
  });

  it("takes a Product's own approvers from its System's annotation", async () => {
    const world = await approvalWorld();
    world.directory.setProduct(SHOP, { owners: [], annotations: { 'refplat.org/approvers': 'group:default/developers' } });

    expect(await world.approve(CAROL)).toMatchObject({ status: 'approved', approvedBy: CAROL });
  });

  it('refuses the requester’s own approval when approvers must differ, and allows it when they need not', async () => {
    const distinct = await approvalWorld();
    await expect(distinct.approve(ALICE)).rejects.toThrow(
      new ConflictError('You requested this promotion and may not approve it; another release-approver must'),
    );
    expect(await distinct.current()).toMatchObject({ status: 'awaiting-approval' });

    const same = await approvalWorld({ requireDistinctApprover: false });
    expect(await same.approve(ALICE)).toMatchObject({ status: 'approved', approvedBy: ALICE });
  });

  it('refuses to approve a promotion that waits for no approval, or whose PR is still being opened', async () => {
    const { approvalService, request, store } = await approvalWorld();
    const uat = await request('uat', { api: digest('b') });

    await expect(approvalService.approve(uat, as(BOB))).rejects.toThrow(
      new ConflictError(`Nothing to approve: promotion ${uat.id} is open`),
    );

    await store.transition((await store.findLive(SHOP.team, SHOP.product, 'prod'))!.id, {}, { status: 'closed' });
    const opening = await request('prod', { api: digest('b') }, { open: false });
    await expect(approvalService.approve(opening, as(BOB))).rejects.toThrow(
      new ConflictError('Its pull request is still being opened; approve it once it is open'),
    );
    expect((await store.listEvents(opening.id)).map(event => event.type)).toEqual(['requested']);
  });

  describe('with a quorum of two for prod', () => {
    it('waits for a second, different approver, then approves with both', async () => {
      const { approve, current, repo, promotion } = await approvalWorld({ quorum: { prod: 2 } });

      const once = await approve(BOB);

      expect(once).toMatchObject({
        status: 'awaiting-approval',
        statusReason: '1 of 2 approvals (Bob Builder); waiting for another release-approver',
      });
      expect(repo.latestStatusesOf(promotion.headSha!)[APPROVAL_CONTEXT]).toMatchObject({
        state: 'pending',
        description: '1 of 2 approvals',
      });
      await expect(approve(BOB)).rejects.toThrow(
        new ConflictError('You already approved this head; another release-approver must approve it'),
      );
      expect(await current()).toMatchObject({ status: 'awaiting-approval' });

      const twice = await approve(DAVE);

      expect(twice).toMatchObject({ status: 'approved', approvedBy: `${BOB}, ${DAVE}`, approvedSha: promotion.headSha });
      expect(repo.latestStatusesOf(promotion.headSha!)[APPROVAL_CONTEXT]).toMatchObject({
        state: 'success',
        description: 'Approved by Bob Builder, Dave Deployer (2 of 2)',
      });
    });

    it('does not count the requester towards it, even where they may approve', async () => {
      const { approve } = await approvalWorld({ quorum: { prod: 2 }, requireDistinctApprover: true });

      await expect(approve(ALICE)).rejects.toThrow(ConflictError);
      expect(await approve(BOB)).toMatchObject({ status: 'awaiting-approval' });
    });

    it('completes once, when two approvers approve at the same time', async () => {
      const { approvalService, current, store, promotion } = await approvalWorld({ quorum: { prod: 2 } });
      const before = await current();

      const [bob, dave] = await Promise.all([
        approvalService.approve(before, as(BOB)),
        approvalService.approve(before, as(DAVE)),
      ]);

      expect([bob.status, dave.status].sort()).toEqual(['approved', 'awaiting-approval']);
      expect(await current()).toMatchObject({ status: 'approved', approvedBy: `${BOB}, ${DAVE}` });
      expect((await store.listEvents(promotion.id)).filter(event => event.type === 'approved')).toHaveLength(2);
    });
  });

  describe("binds to the PR's head", () => {
    it('refuses an approval while a new push is not yet verified, and asks the Gate to look', async () => {
      const { approve, pushSameContent, current, changed, promotion } = await approvalWorld();
      const pushed = pushSameContent();

      await expect(approve(BOB)).rejects.toThrow(
        `The pull request changed since Backstage verified it (its head is now ${pushed.slice(0, 7)}); the Gate is checking it — look again before approving`,
      );

      expect(await current()).toMatchObject({ status: 'awaiting-approval', headSha: promotion.headSha });
      expect(changed).toEqual([promotion.id]);
    });

    it('does not count an approval of an earlier head towards the quorum of the new one', async () => {
      const { approve, pushSameContent, gate, current, repo, promotion } = await approvalWorld({ quorum: { prod: 2 } });
      await approve(BOB);
      const pushed = pushSameContent();
      await gate.check(promotion.id);
      expect(await current()).toMatchObject({ status: 'awaiting-approval', headSha: pushed });

      expect(await approve(DAVE)).toMatchObject({
        status: 'awaiting-approval',
        statusReason: '1 of 2 approvals (Dave Deployer); waiting for another release-approver',
      });
      const approved = await approve(BOB);

      expect(approved).toMatchObject({ status: 'approved', approvedBy: `${DAVE}, ${BOB}`, approvedSha: pushed });
      expect(repo.latestStatusesOf(pushed)[APPROVAL_CONTEXT]).toMatchObject({ state: 'success' });
    });

    it('is voided by a push after it completed, and a new approval binds to the new head', async () => {
      const { approve, pushSameContent, gate, current, promotion } = await approvalWorld();
      await approve(BOB);
      const pushed = pushSameContent();

      await gate.check(promotion.id);

      expect(await current()).toMatchObject({ status: 'awaiting-approval', headSha: pushed, approvedSha: undefined });
      expect(await approve(DAVE)).toMatchObject({ status: 'approved', approvedBy: DAVE, approvedSha: pushed });
    });
  });

  describe('rejecting', () => {
    it("closes the promotion and its PR with the approver's reason", async () => {
      const { closer, current, repo, promotion } = await approvalWorld();

      const rejected = await closer.reject(await current(), as(BOB), 'Not during the sale');

      expect(rejected).toMatchObject({
        status: 'closed',
        rejection: { by: BOB, reason: 'Not during the sale' },
        statusReason: expect.stringContaining('Bob Builder'),
      });
      expect(repo.pullRequests()).toMatchObject([{ number: promotion.pullRequest.number, state: 'closed', merged: false }]);
      expect(repo.commentsOn(promotion.pullRequest.number)).toEqual([
        expect.stringMatching(/^Rejected by Bob Builder .* in Backstage \(requested by Alice Developer .*\):\n\n> Not during the sale$/),
      ]);
    });

    it('is for release-approvers only, and still possible after an approval the Gate has not merged yet', async () => {
      const { closer, current, approve } = await approvalWorld();

      await expect(closer.reject(await current(), as(CAROL), 'no')).rejects.toThrow(NotAllowedError);
      expect(await current()).toMatchObject({ status: 'awaiting-approval' });

      await approve(BOB);
      expect(await closer.reject(await current(), as(DAVE), 'changed my mind')).toMatchObject({ status: 'closed' });
    });
  });

  describe('withdrawing', () => {
    it("lets the requester take a pending prod promotion back: closed with their reason, its PR closed with a comment, its branch gone", async () => {
      const { closer, current, repo, promotion, store } = await approvalWorld();

      const withdrawn = await closer.withdraw(await current(), as(ALICE), 'Requested prod by mistake');

      expect(withdrawn).toMatchObject({ status: 'closed', statusReason: 'Withdrawn by Alice Developer: Requested prod by mistake' });
      expect(repo.pullRequests()).toMatchObject([{ number: promotion.pullRequest.number, state: 'closed', merged: false }]);
      expect(repo.commentsOn(promotion.pullRequest.number)).toEqual([
        expect.stringMatching(/^Withdrawn by Alice Developer .* in Backstage \(requested by Alice Developer .*\):\n\n> Requested prod by mistake$/),
      ]);
      expect(repo.branchHead(promotion.branch!)).toBeUndefined();
      expect((await store.listEvents(promotion.id)).map(event => [event.type, event.detail])).toContainEqual([
        'withdrawn',
        'Requested prod by mistake',
      ]);
    });

    it('refuses someone who neither requested it nor approves (403), and a promotion already ended (409)', async () => {
      const { closer, current } = await approvalWorld();

      await expect(closer.withdraw(await current(), as(CAROL), 'not mine')).rejects.toThrow(
        new NotAllowedError('Only the person who requested it, or one of the Product’s approvers, may withdraw it'),
      );
      expect(await current()).toMatchObject({ status: 'awaiting-approval' });

      // An approver may (as they could reject it), and then it is over.
      await closer.withdraw(await current(), as(DAVE), 'superseded by a hotfix');
      await expect(closer.withdraw(await current(), as(ALICE), 'again')).rejects.toThrow(ConflictError);
    });
  });
});
