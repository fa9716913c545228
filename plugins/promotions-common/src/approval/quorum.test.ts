import { quorumProgress } from './quorum';

const HEAD = 'a'.repeat(40);
const OLD = 'b'.repeat(40);
const alice = { approver: 'user:default/alice', sha: HEAD };
const carol = { approver: 'user:default/carol', sha: HEAD };
const dave = { approver: 'user:default/dave', sha: HEAD };

describe('quorumProgress', () => {
  it.each([
    ['1 needed, 1 approver', [alice], 1, true, '1 of 1', 1],
    ['2 needed, 1 approver', [alice], 2, false, '1 of 2', 1],
    ['2 needed, 2 approvers', [alice, carol], 2, true, '2 of 2', 2],
    ['2 needed, the same approver twice', [alice, alice], 2, false, '1 of 2', 1],
    ['3 needed, 2 approvers', [alice, carol], 3, false, '2 of 3', 2],
    ['3 needed, 3 approvers', [alice, carol, dave], 3, true, '3 of 3', 3],
    ['2 needed, 3 approvers', [alice, carol, dave], 2, true, '2 of 2', 3],
    ['an approval of an earlier head does not count', [{ ...alice, sha: OLD }, carol], 2, false, '1 of 2', 1],
    ['the requester does not count', [{ approver: 'user:default/bob', sha: HEAD }, carol], 2, false, '1 of 2', 1],
    ['no approvals', [], 1, false, '0 of 1', 0],
  ])('%s', (_case, approvals, needed, met, progress, count) => {
    const result = quorumProgress(approvals, HEAD, 'user:default/bob', needed);
    expect(result).toMatchObject({ needed, met, progress });
    expect(result.approvers).toHaveLength(count);
  });

  it("counts the requester's own approval where approvers need not differ (requireDistinctApprover: false)", () => {
    const bob = { approver: 'user:default/bob', sha: HEAD };
    expect(quorumProgress([bob], HEAD, undefined, 1)).toMatchObject({ met: true, progress: '1 of 1', approvers: [bob.approver] });
    expect(quorumProgress([bob, carol], HEAD, undefined, 2)).toMatchObject({ met: true, progress: '2 of 2' });
    expect(quorumProgress([bob], HEAD, 'user:default/bob', 1)).toMatchObject({ met: false, progress: '0 of 1' });
  });
});
