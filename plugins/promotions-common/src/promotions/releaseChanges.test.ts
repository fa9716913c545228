import { releaseChanges } from './releaseChanges';
import { ReleaseChange } from './types';

const [A, B, C, D] = ['a', 'b', 'c', 'd'].map(x => `sha256:${x.repeat(64)}`);

describe('releaseChanges', () => {
  it.each<[string, Record<string, string> | undefined, Record<string, string>, ReleaseChange[]]>([
    [
      "the record's first commit adds every Service",
      undefined,
      { storefront: A, cart: B },
      [{ service: 'storefront', to: A }, { service: 'cart', to: B }],
    ],
    [
      'one Service changed, the other kept',
      { storefront: A, cart: B },
      { storefront: C, cart: B },
      [{ service: 'storefront', from: A, to: C }],
    ],
    [
      'two Services changed in one commit',
      { storefront: A, cart: B },
      { storefront: C, cart: D },
      [{ service: 'storefront', from: A, to: C }, { service: 'cart', from: B, to: D }],
    ],
    [
      'a Service added beside an existing one',
      { storefront: A },
      { storefront: A, cart: B },
      [{ service: 'cart', to: B }],
    ],
    [
      'a Service removed, after the changed ones',
      { storefront: A, cart: B },
      { storefront: C },
      [{ service: 'storefront', from: A, to: C }, { service: 'cart', from: B }],
    ],
    ['a commit that changed no digest (a comment, a reorder)', { storefront: A, cart: B }, { cart: B, storefront: A }, []],
    ['the same digest returning is still a change', { storefront: B }, { storefront: A }, [{ service: 'storefront', from: B, to: A }]],
    ['a record unreadable before (no digests) adds every Service', {}, { cart: B }, [{ service: 'cart', to: B }]],
  ])('%s', (_name, before, after, expected) => {
    expect(releaseChanges(before, after)).toEqual(expected);
  });

  it('leaves `from` out of an added Service rather than naming it undefined (as JSON sends it)', () => {
    expect(Object.keys(releaseChanges(undefined, { cart: B })[0])).toEqual(['service', 'to']);
  });
});
