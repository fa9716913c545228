import { shopPromotion } from '../../__testUtils__/ladders';
import { promotionDuration } from './promotionDuration';

const now = new Date('2026-11-30T10:00:00.000Z');

describe('promotionDuration', () => {
  it.each([
    ['merged', '2026-11-30T09:00:00.000Z', '2026-11-30T09:02:10.000Z', '2m 10s'],
    ['failed', '2026-11-30T09:00:00.000Z', '2026-11-30T09:00:04.000Z', '4s'],
    ['awaiting-approval', '2026-11-30T09:15:00.000Z', '2026-11-30T09:16:00.000Z', '45m so far'],
    ['merged', 'not a date', '2026-11-30T09:16:00.000Z', '—'],
  ] as const)('%s from %s to %s took %s', (status, createdAt, updatedAt, expected) => {
    expect(promotionDuration(shopPromotion({ status, createdAt, updatedAt }), now)).toBe(expected);
  });
});
