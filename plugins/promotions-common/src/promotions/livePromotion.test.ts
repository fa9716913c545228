import { isLivePromotion } from './livePromotion';

describe('isLivePromotion', () => {
  it.each([
    ['open', true],
    ['awaiting-approval', true],
    ['approved', true],
    ['merged', false],
    ['closed', false],
    ['failed', false],
    ['something new', false],
  ])('%s → %p', (status, live) => {
    expect(isLivePromotion(status)).toBe(live);
  });
});
