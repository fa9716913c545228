import { quantile } from './quantile';

describe('quantile', () => {
  it.each([
    ['no values', [], 0.5, undefined],
    ['one value', [7], 0.9, 7],
    ['median of an odd count', [1, 2, 9], 0.5, 2],
    ['median of an even count: mean of the middle two', [1, 2, 4, 9], 0.5, 3],
    ['p90 of four: 70 % of the way from the 3rd to the 4th', [0, 10, 20, 30], 0.9, 27],
    ['p90 of eleven: exactly the 10th', [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9, 9],
    ['minimum', [3, 5], 0, 3],
    ['maximum', [3, 5], 1, 5],
  ])('%s', (_name, sorted, q, expected) => {
    expect(quantile(sorted, q)).toBe(expected);
  });
});
