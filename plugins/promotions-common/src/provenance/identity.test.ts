import { expectedSigner, unknownPlaceholders } from './identity';

describe('unknownPlaceholders', () => {
  it.each([
    ['none', 'team-{team}/{product}-{service}', []],
    ['one', 'https://github.com/{org}/{product}', ['org']],
    ['an empty one', 'a{}b', ['']],
  ])('%s', (_case, template, unknown) => {
    expect(unknownPlaceholders(template)).toEqual(unknown);
  });
});

describe('expectedSigner', () => {
  it('fills the issuer and the identity', () => {
    const storefront = { team: 'alpha', product: 'shop', service: 'storefront' };
    expect(expectedSigner({ issuer: 'https://issuer/{team}', identity: 'https://github.com/refplat/{product}/sign' }, storefront)).toEqual({
      issuer: 'https://issuer/alpha',
      identity: 'https://github.com/refplat/shop/sign',
    });
  });
});
