import { SEED_IMAGE_NAME, expectedSigner, fillTemplate, unknownPlaceholders } from './identity';

const owner = { team: 'alpha', product: 'shop', service: 'storefront' };

describe('fillTemplate', () => {
  it.each([
    ["the seeds' image name", SEED_IMAGE_NAME, 'team-alpha/shop-storefront'],
    ['a workflow identity', 'https://github.com/acme/{product}/.github/workflows/build-sign.yml@refs/heads/main', 'https://github.com/acme/shop/.github/workflows/build-sign.yml@refs/heads/main'],
    ['each placeholder as often as it appears', '{team}-{team}/{service}', 'alpha-alpha/storefront'],
    ['no placeholder', 'https://token.actions.githubusercontent.com', 'https://token.actions.githubusercontent.com'],
    ['an unknown placeholder is left as it is', '{org}/{product}', '{org}/shop'],
  ])('%s', (_case, template, filled) => {
    expect(fillTemplate(template, owner)).toBe(filled);
  });
});

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
    expect(expectedSigner({ issuer: 'https://issuer/{team}', identity: 'https://github.com/refplat/{product}/sign' }, owner)).toEqual({
      issuer: 'https://issuer/alpha',
      identity: 'https://github.com/refplat/shop/sign',
    });
  });
});
