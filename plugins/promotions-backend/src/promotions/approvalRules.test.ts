import { PromotionStatus } from '@refplat/plugin-promotions-common';
import { rejectedReason, rejectionProblem } from './approvalRules';

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
    expect(rejectedReason('Alice Approver', 'cart 2.3 breaks checkout')).toBe(
      'Rejected by Alice Approver: cart 2.3 breaks checkout',
    );
  });
});
