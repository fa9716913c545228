import { MAX_JSON_DEPTH, isNestedDeeperThan } from './jsonBody';

const DIGEST = `sha256:${'a'.repeat(64)}`;

describe('isNestedDeeperThan', () => {
  const nested = (depth: number) => {
    let value: unknown = 'leaf';
    for (let i = 0; i < depth; i++) value = [value];
    return value;
  };

  it.each([
    [{ services: { cart: DIGEST } }, false],
    [nested(MAX_JSON_DEPTH), false],
    [nested(MAX_JSON_DEPTH + 1), true],
    [{ a: { b: { c: { d: { e: { f: { g: { h: { i: 1 } } } } } } } } }, true],
    ['text', false],
    [null, false],
  ])('%#: %p', (value, deeper) => {
    expect(isNestedDeeperThan(value, MAX_JSON_DEPTH)).toBe(deeper);
  });

  it('walks a value nested 100,000 deep without exhausting the stack', () => {
    expect(isNestedDeeperThan(nested(100_000), MAX_JSON_DEPTH)).toBe(true);
  });
});
