import { attestedSource } from './attestedSource';

describe('attestedSource', () => {
  const verified = { state: 'verified' as const, sourceRepo: 'https://github.com/acme/shop', sourceCommit: 'c0ffee' };
  it.each<[string, Parameters<typeof attestedSource>[0], ReturnType<typeof attestedSource>]>([
    ['a verified GitHub source', verified, { repository: 'acme/shop', revision: 'c0ffee' }],
    ['a .git URL with a trailing slash', { ...verified, sourceRepo: 'https://ghe.acme.com/acme/shop.git/' }, { repository: 'acme/shop', revision: 'c0ffee' }],
    ['a GitHub on loopback, over http', { ...verified, sourceRepo: 'http://127.0.0.1:7070/refplat/shop' }, { repository: 'refplat/shop', revision: 'c0ffee' }],
    ['not verified: the attestation proves nothing', { ...verified, state: 'failed' }, undefined],
    ['no commit', { ...verified, sourceCommit: undefined }, undefined],
    ['not a repository URL', { ...verified, sourceRepo: 'git+ssh://github.com/acme/shop' }, undefined],
    ['a URL deeper than a repository', { ...verified, sourceRepo: 'https://github.com/acme/shop/tree/main' }, undefined],
    ['nothing checked', undefined, undefined],
  ])('%s', (_case, provenance, expected) => {
    expect(attestedSource(provenance)).toEqual(expected);
  });
});
