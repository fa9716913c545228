import { expectedSigner, unknownPlaceholders, workflowRepository } from './identity';

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

describe('workflowRepository', () => {
  it.each([
    ['a github.com workflow', 'https://github.com/acme/{product}/.github/workflows/build-sign.yml@refs/heads/main', 'https://github.com/acme/{product}'],
    ['a GitHub on loopback', 'http://127.0.0.1:7070/refplat/shop/.github/workflows/build-sign.yml@refs/heads/main', 'http://127.0.0.1:7070/refplat/shop'],
    ['not a workflow', 'https://github.com/acme/shop', undefined],
    ['a path deeper than a repository', 'https://github.com/acme/shop/sub/.github/workflows/x.yml@refs/heads/main', undefined],
    ['an email identity', 'ci@acme.com', undefined],
  ])('%s', (_case, identity, repository) => {
    expect(workflowRepository(identity)).toEqual(repository);
  });
});
