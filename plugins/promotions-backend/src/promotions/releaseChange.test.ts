import { judgeReleaseChange, ReleaseChangeInput } from './releaseChange';

const digest = (c: string) => `sha256:${c.repeat(64)}`;
const PATH = 'gitops/releases/alpha/shop/prod.yaml';

const release = (services: Record<string, string>, comment = '') => `apiVersion: platform.refplat.org/v1beta1
kind: Release
metadata:
  name: alpha-shop-prod${comment}
spec:
  environmentRef: alpha-shop-prod
  services:
${Object.entries(services)
  .map(([service, d]) => `    ${service}:\n      digest: ${d}\n`)
  .join('')}`;

const BASE = release({ storefront: digest('1'), cart: digest('2'), checkout: digest('3') });
const REQUESTED = { cart: digest('a') };
const PROMOTED = release({ storefront: digest('1'), cart: digest('a'), checkout: digest('3') });

const input = (overrides: Partial<ReleaseChangeInput>): ReleaseChangeInput => ({
  path: PATH,
  changedFiles: [{ filename: PATH }],
  baseText: BASE,
  headText: PROMOTED,
  services: REQUESTED,
  ...overrides,
});

describe('judgeReleaseChange', () => {
  it('verifies exactly the requested digest lines in the target Release', () => {
    expect(judgeReleaseChange(input({}))).toEqual({ verified: true });
  });

  it('verifies a rollback of several services the same way', () => {
    const services = { cart: digest('a'), checkout: digest('b') };
    const head = release({ storefront: digest('1'), cart: digest('a'), checkout: digest('b') });
    expect(judgeReleaseChange(input({ services, headText: head }))).toEqual({ verified: true });
  });

  it.each([
    [
      'a digest nobody requested pushed onto the PR branch',
      { headText: release({ storefront: digest('1'), cart: digest('a'), checkout: digest('d') }) },
      `checkout changes to sha256:dddddddddddd, which nobody requested`,
    ],
    [
      'the requested service set to another digest',
      { headText: release({ storefront: digest('1'), cart: digest('e'), checkout: digest('3') }) },
      `cart is sha256:eeeeeeeeeeee, not the requested sha256:aaaaaaaaaaaa`,
    ],
    [
      'the requested change reverted',
      { headText: BASE, changedFiles: [] },
      `cart is sha256:222222222222, not the requested sha256:aaaaaaaaaaaa`,
    ],
    [
      'a requested service removed',
      { headText: release({ storefront: digest('1'), checkout: digest('3') }) },
      `cart is absent, not the requested sha256:aaaaaaaaaaaa`,
    ],
    [
      'another line of the Release changed',
      { headText: release({ storefront: digest('1'), cart: digest('a'), checkout: digest('3') }, ' # edited') },
      `it changes lines of ${PATH} other than the requested digests`,
    ],
    [
      'another file changed too',
      { changedFiles: [{ filename: PATH }, { filename: 'gitops/releases/alpha/shop/staging.yaml' }] },
      `it changes gitops/releases/alpha/shop/staging.yaml; a promotion changes only ${PATH}`,
    ],
    [
      'another file changed instead',
      { changedFiles: [{ filename: '.github/workflows/deploy.yaml' }] },
      `it changes .github/workflows/deploy.yaml; a promotion changes only ${PATH}`,
    ],
    ['the Release deleted', { headText: undefined }, `its head has no ${PATH}`],
    [
      'the Release replaced by something else',
      { headText: 'kind: ConfigMap\n' },
      expect.stringMatching(new RegExp(`^its ${PATH} is not a Release record`)),
    ],
    [
      'a base that cannot be edited',
      { baseText: 'spec: [' },
      expect.stringMatching(new RegExp(`^the base ${PATH} cannot take the requested digests`)),
    ],
  ])('refuses %s, saying why', (_name, overrides, reason) => {
    expect(judgeReleaseChange(input(overrides as Partial<ReleaseChangeInput>))).toEqual({
      verified: false,
      reason,
    });
  });
});
