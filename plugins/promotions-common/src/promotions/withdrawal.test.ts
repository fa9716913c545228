import { withdrawalProblem, withdrawnReason } from './withdrawal';

const BOB = 'user:default/bob';
const pending = {
  id: 'p1',
  status: 'awaiting-approval' as const,
  requestedBy: BOB,
  pullRequest: { number: 12, url: 'https://github.com/acme/platform/pull/12' },
};

describe('withdrawalProblem', () => {
  it.each<[string, object, { userEntityRef: string; isApprover: boolean }, string | undefined]>([
    ['its requester, awaiting approval', {}, { userEntityRef: BOB, isApprover: false }, undefined],
    ['its requester, open below prod', { status: 'open' }, { userEntityRef: BOB, isApprover: false }, undefined],
    ['its requester, approved and not merged yet', { status: 'approved' }, { userEntityRef: BOB, isApprover: false }, undefined],
    ['an approver of the Product', {}, { userEntityRef: 'user:default/alice', isApprover: true }, undefined],
    [
      'someone else',
      {},
      { userEntityRef: 'user:default/dave', isApprover: false },
      'Only the person who requested it, or one of the Product’s approvers, may withdraw it',
    ],
    [
      'a merged one',
      { status: 'merged', statusReason: 'Merged by the Gate' },
      { userEntityRef: BOB, isApprover: false },
      'Nothing to withdraw: promotion p1 is merged (Merged by the Gate)',
    ],
    ['a closed one', { status: 'closed' }, { userEntityRef: BOB, isApprover: true }, 'Nothing to withdraw: promotion p1 is closed'],
    [
      'one whose pull request is being opened',
      { pullRequest: { number: 0, url: '' } },
      { userEntityRef: BOB, isApprover: false },
      'Its pull request is still being opened; withdraw it once it is open',
    ],
    [
      'one waiting in the write queue (no pull request yet)',
      { pullRequest: { number: 0, url: '' }, queuedAt: '2026-12-06T09:00:00Z' },
      { userEntityRef: BOB, isApprover: false },
      undefined,
    ],
  ])('%s', (_case, over, caller, problem) => {
    expect(withdrawalProblem({ ...pending, ...over }, caller)).toBe(problem);
  });

  it('says who withdrew it and why', () => {
    expect(withdrawnReason('Bob Builder', 'requested prod by mistake')).toBe('Withdrawn by Bob Builder: requested prod by mistake');
  });
});
