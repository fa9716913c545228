import { PromotionStatus } from '@refplat/plugin-promotions-common';
import { awaitsApprovalFrom, rejectedReason, rejectionProblem } from './approvalRules';

const BOB = 'user:default/bob';
const ALICE = 'user:default/alice';

describe('awaitsApprovalFrom', () => {
  it.each<[string, PromotionStatus, string, boolean, boolean, boolean]>([
    // name, status, requestedBy, caller is approver, requireDistinctApprover, listed
    ["an approver, someone else's request", 'awaiting-approval', BOB, true, true, true],
    ['a non-approver', 'awaiting-approval', BOB, false, true, false],
    ['an approver, own request, distinct approver required', 'awaiting-approval', ALICE, true, true, false],
    ['an approver, own request, distinct approver not required', 'awaiting-approval', ALICE, true, false, true],
    ['already approved', 'approved', BOB, true, true, false],
    ['into a stage without approval', 'open', BOB, true, true, false],
    ['merged', 'merged', BOB, true, true, false],
  ])('%s → %p', (_name, status, requestedBy, isApprover, distinct, listed) => {
    expect(
      awaitsApprovalFrom({ status, requestedBy }, { userEntityRef: ALICE, isApprover }, distinct),
    ).toBe(listed);
  });
});

describe('rejectionProblem', () => {
  const pr = { number: 7, url: 'https://github.example/pr/7' };
  const problemOf = (status: PromotionStatus, number: number) =>
    rejectionProblem({ id: 'p', status, statusReason: 'why', pullRequest: { ...pr, number } });

  it.each<[PromotionStatus, number]>([
    ['awaiting-approval', 7],
    ['approved', 7],
  ])('%s with PR #%p may be rejected', (status, number) => {
    expect(problemOf(status, number)).toBeUndefined();
  });

  it.each<[PromotionStatus, number, RegExp]>([
    ['open', 7, /does not wait for approval/],
    ['merged', 7, /Nothing to reject: promotion p is merged \(why\)/],
    ['closed', 7, /Nothing to reject: promotion p is closed/],
    ['failed', 7, /Nothing to reject/],
    ['awaiting-approval', 0, /still being opened/],
  ])('%s with PR #%p may not', (status, number, problem) => {
    expect(problemOf(status, number)).toMatch(problem);
  });

  it('names the rejecter and the reason', () => {
    expect(rejectedReason(ALICE, 'cart 2.3 breaks checkout')).toBe(
      'Rejected by user:default/alice: cart 2.3 breaks checkout',
    );
  });
});
