import { disposePullRequest, graceElapsed, isBranchInUse, LivePromotionFacts } from './ownership';

const NOW = new Date('2026-12-01T10:00:00.000Z');
const LATER = '2026-12-01T10:01:00.000Z';
const EARLIER = '2026-12-01T09:59:00.000Z';

const live: LivePromotionFacts[] = [
  { id: 'recorded', pullRequest: { number: 4 }, branch: 'promotions/alpha-shop-prod-recorded' },
  { id: 'opening', pullRequest: { number: 0 }, leaseExpiresAt: LATER, branch: 'promotions/alpha-shop-test-opening' },
  { id: 'crashed', pullRequest: { number: 0 }, leaseExpiresAt: EARLIER, branch: 'promotions/alpha-shop-uat-crashed' },
];

describe('disposePullRequest', () => {
  it.each([
    ['the PR its live promotion recorded', { number: 4, promotionId: 'recorded' }, { action: 'keep' }],
    ['a second PR of a promotion that has one', { number: 9, promotionId: 'recorded' }, { action: 'close', reason: 'its promotion continues in #4' }],
    ['the PR of a promotion still being opened', { number: 5, promotionId: 'opening' }, { action: 'wait' }],
    ['the PR of a promotion whose opener died', { number: 6, promotionId: 'crashed' }, { action: 'adopt', promotionId: 'crashed' }],
    ['a PR whose promotion is not live', { number: 7, promotionId: 'superseded-one', recorded: true }, { action: 'close', reason: expect.stringMatching(/no live promotion owns/) }],
    ['a PR whose promotion the database never had (it was lost)', { number: 10, promotionId: 'lost', recorded: false }, { action: 'restore', promotionId: 'lost' }],
    ['a marker without an id, unknown to the database', { number: 11, recorded: false }, { action: 'close', reason: expect.stringMatching(/no live promotion owns/) }],
    ['a marker without an id', { number: 8 }, { action: 'close', reason: expect.stringMatching(/no live promotion owns/) }],
  ])('%s', (_name, pr, expected) => {
    expect(disposePullRequest({ headRef: 'promotions/x', ...pr }, live, NOW)).toEqual(expected);
  });
});

describe('isBranchInUse', () => {
  const openPullRequests = [{ headRef: 'promotions/alpha-shop-prod-adopted' }];
  it.each([
    ['a live promotion names it', 'promotions/alpha-shop-test-opening', true],
    ['an open PR comes from it', 'promotions/alpha-shop-prod-adopted', true],
    ['neither', 'promotions/alpha-shop-prod-leftover', false],
  ])('%s: %p', (_name, branch, inUse) => {
    expect(isBranchInUse(branch as string, live, openPullRequests)).toBe(inUse);
  });
});

describe('graceElapsed', () => {
  const tenMinutes = 10 * 60_000;
  it.each([
    ['idle for exactly the grace period', '2026-12-01T09:50:00.000Z', true],
    ['idle for longer', '2026-12-01T08:00:00.000Z', true],
    ['idle for less', '2026-12-01T09:55:00.000Z', false],
    ['idle since an unknown time', undefined, false],
    ['an unreadable time', 'yesterday', false],
  ])('%s', (_name, since, elapsed) => {
    expect(graceElapsed(since, NOW, tenMinutes)).toBe(elapsed);
  });
});
