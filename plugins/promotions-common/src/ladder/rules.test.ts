import { differsFromBelow, isWaitingToClimb } from './rules';

const a = `sha256:${'a'.repeat(64)}`;
const b = `sha256:${'b'.repeat(64)}`;

describe('isWaitingToClimb', () => {
  it.each([
    ['below differs', { declared: true, digest: a }, b, true],
    ['never released here', { declared: true }, b, true],
    ['same digest', { declared: true, digest: a }, a, false],
    ['nothing below', { declared: true, digest: a }, undefined, false],
    ['not declared here', { declared: false }, b, false],
    ['not declared but released', { declared: false, digest: a }, b, false],
    ['below is newer', { declared: true, digest: a, incomingAge: { age: 'newer' as const } }, b, true],
    ['below is of unknown age', { declared: true, digest: a, incomingAge: { age: 'unknown' as const } }, b, true],
    [
      'below is older (a rollback below, a lifted hold): a downgrade does not climb',
      { declared: true, digest: a, incomingAge: { age: 'older' as const, reason: 'b reached dev before test’s a' } },
      b,
      false,
    ],
  ])('%s', (_name, cell, below, expected) => {
    expect(isWaitingToClimb(cell, below)).toBe(expected);
  });
});

describe('differsFromBelow', () => {
  it.each([
    ['waiting to climb', { waitingToClimb: true }, true],
    ['an older digest below (a rollback below): differs, though it does not climb', { waitingToClimb: false, incomingAge: { age: 'older' as const, reason: 'r' } }, true],
    ['the same digest below', { waitingToClimb: false }, false],
  ])('%s', (_name, cell, expected) => {
    expect(differsFromBelow(cell)).toBe(expected);
  });
});
