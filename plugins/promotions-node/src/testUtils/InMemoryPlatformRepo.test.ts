import { InMemoryPlatformRepo, gitBlobShaOf } from './InMemoryPlatformRepo';
import { ManualClock } from './ManualClock';

const PATH = 'releases/alpha/shop/uat.yaml';

function repoWithRelease(options: { deleteBranchOnMerge?: boolean } = {}) {
  const clock = new ManualClock('2026-01-01T00:00:00Z');
  const repo = new InMemoryPlatformRepo({ clock, ...options });
  const base = repo.commit({ [PATH]: 'digest: a\n' }, { message: 'seed' });
  return { repo, clock, base };
}

async function openPromotionPr(repo: InMemoryPlatformRepo, base: string, text = 'digest: b\n') {
  const current = await repo.readFile(PATH, base);
  await repo.createBranch('promotions/x', base);
  const head = await repo.commitFile({ branch: 'promotions/x', path: PATH, text, blobSha: current.blobSha, message: 'Promote' });
  const pr = await repo.openPullRequest({ branch: 'promotions/x', title: 'Promote', body: 'marker:x' });
  return { head, pr };
}

describe('InMemoryPlatformRepo', () => {
  it('reads what was committed, by branch, sha and blob, as both ports', async () => {
    const { repo, base } = repoWithRelease();
    expect(await repo.headCommit()).toBe(base);
    const index = await repo.fileIndex(base);
    expect(index).toEqual({ [PATH]: gitBlobShaOf('digest: a\n') });
    expect(await repo.readBlob(index[PATH])).toBe('digest: a\n');
    expect(await repo.readParsedBlob(index[PATH], 'upper', text => text.toUpperCase())).toBe('DIGEST: A\n');
    expect(await repo.readFile(PATH, 'main')).toEqual({ text: 'digest: a\n', blobSha: index[PATH] });
    expect(await repo.readFileIfPresent('nothing.yaml', base)).toBeUndefined();
    await expect(repo.readFile('nothing.yaml', base)).rejects.toThrow(/HTTP 404/);
  });

  it('opens a PR whose head follows its branch, its diff against the base, and squash-merges exactly that head', async () => {
    const { repo, base, clock } = repoWithRelease();
    const { head, pr } = await openPromotionPr(repo, base);
    expect(pr).toMatchObject({ number: 1, state: 'open', merged: false, headSha: head, headRef: 'promotions/x' });
    expect(await repo.changedFiles(head)).toEqual([{ filename: PATH, blobSha: gitBlobShaOf('digest: b\n') }]);
    expect(await repo.findOpenPullRequests('marker:')).toHaveLength(1);
    expect(await repo.listBranches('promotions/')).toEqual([{ name: 'promotions/x', sha: head }]);

    const pushed = repo.commit({ 'other.yaml': 'x' }, { branch: 'promotions/x' });
    expect((await repo.getPullRequest(1)).headSha).toBe(pushed);
    expect(await repo.mergePullRequest(1, head, 'Promote (#1)')).toMatchObject({ merged: false, reason: 'head-moved' });

    clock.advance({ minutes: 5 });
    const outcome = await repo.mergePullRequest(1, pushed, 'Promote (#1)');
    expect(outcome.merged).toBe(true);
    expect(repo.fileAt('main', PATH)).toBe('digest: b\n');
    expect(await repo.getPullRequest(1)).toMatchObject({ state: 'closed', merged: true, mergedBy: 'promotions-bot' });
    expect(await repo.listCommits(PATH, 10)).toEqual([
      { sha: repo.branchHead(), author: 'promotions-bot', date: '2026-01-01T00:05:00.000Z', message: 'Promote (#1)' },
      expect.objectContaining({ sha: base, message: 'seed' }),
    ]);
  });

  it('deletes a merged branch itself when the repository does (deleteBranchOnMerge), and says so', async () => {
    const kept = repoWithRelease();
    const keptPr = await openPromotionPr(kept.repo, kept.base);
    expect(await kept.repo.mergePullRequest(1, keptPr.head, 'Promote (#1)')).not.toHaveProperty('headBranchDeleted');
    expect(kept.repo.branchHead('promotions/x')).toBe(keptPr.head);

    const deleting = repoWithRelease({ deleteBranchOnMerge: true });
    const { head } = await openPromotionPr(deleting.repo, deleting.base);
    expect(await deleting.repo.mergePullRequest(1, head, 'Promote (#1)')).toMatchObject({ merged: true, headBranchDeleted: true });
    expect(deleting.repo.branchHead('promotions/x')).toBeUndefined();
  });

  it('refuses a merge the base branch conflicts with, and a commit on a blob that moved on', async () => {
    const { repo, base } = repoWithRelease();
    const { head } = await openPromotionPr(repo, base);
    repo.commit({ [PATH]: 'digest: c\n' });
    expect((await repo.getPullRequest(1)).mergeable).toBe(false);
    expect(await repo.mergePullRequest(1, head, 't')).toMatchObject({ merged: false, reason: 'not-mergeable' });
    await expect(
      repo.commitFile({ branch: 'main', path: PATH, text: 'x', blobSha: gitBlobShaOf('digest: a\n'), message: 'm' }),
    ).rejects.toThrow(/HTTP 409/);
  });

  it('records statuses, comments, labels and closes; deleting a missing branch is no failure', async () => {
    const { repo, base } = repoWithRelease();
    const { head } = await openPromotionPr(repo, base);
    await repo.setStatus({ sha: head, context: 'promotions/health', state: 'pending', description: 'x'.repeat(200) });
    await repo.setStatus({ sha: head, context: 'promotions/health', state: 'success', description: 'ok' });
    expect(repo.statusesOf(head)).toHaveLength(2);
    expect(repo.statusesOf(head)[0].description).toHaveLength(140);
    expect(repo.latestStatusesOf(head)['promotions/health'].state).toBe('success');
    await repo.addLabels(1, ['promotion', 'promotion']);
    expect(repo.labelsOf(1)).toEqual(['promotion']);
    await repo.closePullRequest(1, 'Closed: superseded.');
    expect(repo.commentsOn(1)).toEqual(['Closed: superseded.']);
    expect(await repo.listOpenPullRequests()).toEqual([]);
    await repo.deleteBranch('promotions/x');
    await repo.deleteBranch('promotions/x');
    expect(repo.branchHead('promotions/x')).toBeUndefined();
  });

  it('meets injected faults once each: a failure, a write whose answer is lost, merge outcomes', async () => {
    const { repo, base } = repoWithRelease();
    repo.failNext('createBranch', { status: 502 });
    await expect(repo.createBranch('b', base)).rejects.toThrow(/creating branch b \(HTTP 502\)/);
    await repo.createBranch('b', base);

    repo.failNext('openPullRequest', { status: 504, applied: true });
    await expect(repo.openPullRequest({ branch: 'b', title: 't', body: 'lost' })).rejects.toThrow(/HTTP 504/);
    expect(repo.pullRequests()).toMatchObject([{ number: 1, body: 'lost', state: 'open' }]);

    repo.failNext('mergePullRequest', { status: 405 });
    expect(await repo.mergePullRequest(1, base, 't')).toMatchObject({ merged: false, reason: 'not-mergeable' });
    repo.failNext('deleteBranch', { status: 422 });
    await expect(repo.deleteBranch('b')).resolves.toBeUndefined();
    expect(repo.calls).toEqual(['createBranch', 'createBranch', 'openPullRequest', 'mergePullRequest', 'deleteBranch']);
  });

  it('acts for people: a hand merge and a hand close', async () => {
    const { repo, base } = repoWithRelease();
    await openPromotionPr(repo, base);
    repo.mergeByHand(1, 'octocat');
    expect(await repo.getPullRequest(1)).toMatchObject({ merged: true, mergedBy: 'octocat' });
    repo.commit({ 'x.yaml': '1' }, { branch: 'hotfix' });
    await repo.openPullRequest({ branch: 'hotfix', title: 'fix', body: '' });
    repo.closeByHand(2);
    expect(await repo.getPullRequest(2)).toMatchObject({ state: 'closed', merged: false });
  });
});
