import { isCompactLadder, minLadderWidth } from './ladderWidths';

describe('isCompactLadder', () => {
  it('goes compact once a stage column is narrower than 140 px', () => {
    // 112 px of service names, then five stages.
    expect(isCompactLadder(112 + 5 * 140, 5)).toBe(false);
    expect(isCompactLadder(112 + 5 * 140 - 1, 5)).toBe(true);
    // A create-app Overview in a 1280 px window.
    expect(isCompactLadder(629, 5)).toBe(true);
    expect(isCompactLadder(629, 3)).toBe(false);
  });

  it('keeps the full look until the width is measured', () => {
    expect(isCompactLadder(0, 5)).toBe(false);
  });
});

describe('minLadderWidth', () => {
  it('gives each stage room for a digest and its actions', () => {
    expect(minLadderWidth(5)).toBe(112 + 5 * 98);
  });
});
