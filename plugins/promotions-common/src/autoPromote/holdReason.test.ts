import { MAX_HOLD_REASON_CHARS, holdReason } from './holdReason';

describe('holdReason', () => {
  it.each([
    ['cart 2.3 breaks checkout', 'cart 2.3 breaks checkout'],
    ['  padded\n', 'padded'],
    [`  ${'x'.repeat(900)} `, 'x'.repeat(MAX_HOLD_REASON_CHARS)],
    ['x'.repeat(MAX_HOLD_REASON_CHARS), 'x'.repeat(MAX_HOLD_REASON_CHARS)],
  ])('keeps %j as %j', (reason, kept) => {
    expect(holdReason(reason)).toBe(kept);
  });
});
