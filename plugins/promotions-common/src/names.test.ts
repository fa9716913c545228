import {
  fillTemplate,
  possessive,
  applicationName,
  isValidDigest,
  isValidName,
  parseProductRef,
  shortDigest,
} from './names';

const hex64 = 'a'.repeat(64);

describe('isValidName', () => {
  it.each([
    ['alpha', true],
    ['shop-2', true],
    ['a', true],
    ['Alpha', false],
    ['-alpha', false],
    ['alpha-', false],
    ['al/pha', false],
    ['..', false],
    ['', false],
    ['a'.repeat(64), false],
    [42, false],
    [undefined, false],
  ])('%p → %p', (value, expected) => {
    expect(isValidName(value)).toBe(expected);
  });
});

describe('isValidDigest', () => {
  it.each([
    [`sha256:${hex64}`, true],
    [`sha256:${'A'.repeat(64)}`, false],
    [`sha256:${hex64.slice(1)}`, false],
    [`sha512:${hex64}`, false],
    ['latest', false],
    [`registry/x@sha256:${hex64}`, false],
    [null, false],
  ])('%p → %p', (value, expected) => {
    expect(isValidDigest(value)).toBe(expected);
  });
});

describe('parseProductRef', () => {
  it('parses team/product', () => {
    expect(parseProductRef('alpha/shop')).toEqual({ team: 'alpha', product: 'shop' });
    expect(parseProductRef(' beta/payments ')).toEqual({ team: 'beta', product: 'payments' });
  });
  it.each(['alpha', 'alpha/shop/x', 'Alpha/shop', 'alpha/', '../etc', ''])(
    'rejects %p',
    value => {
      expect(parseProductRef(value)).toBeUndefined();
    },
  );
});

it('derives names and short digests', () => {
  expect(applicationName({ team: 'alpha', product: 'shop' }, 'dev')).toBe('alpha-shop-dev');
  expect(shortDigest(`sha256:${hex64}`)).toBe('sha256:aaaaaaaaaaaa');
});

describe('fillTemplate', () => {
  const storefront = { team: 'alpha', product: 'shop', service: 'storefront' };
  it.each([
    ['an image repository', 'team-{team}/{product}-{service}', 'team-alpha/shop-storefront'],
    ['a workflow identity', 'https://github.com/acme/{product}/.github/workflows/build-sign.yml@refs/heads/main', 'https://github.com/acme/shop/.github/workflows/build-sign.yml@refs/heads/main'],
    ['each placeholder as often as it appears', '{team}-{team}/{service}', 'alpha-alpha/storefront'],
    ['no placeholder', 'https://token.actions.githubusercontent.com', 'https://token.actions.githubusercontent.com'],
    ['an unknown placeholder is left as it is', '{org}/{product}', '{org}/shop'],
  ])('%s', (_case, template, filled) => {
    expect(fillTemplate(template, storefront)).toBe(filled);
  });
});

describe('possessive', () => {
  it.each([
    ['storefront', "storefront's"],
    ['comments', "comments'"],
    ['SETTINGS', "SETTINGS'"],
    ['api', "api's"],
  ])('%s → %s', (name, written) => {
    expect(possessive(name)).toBe(written);
  });
});
