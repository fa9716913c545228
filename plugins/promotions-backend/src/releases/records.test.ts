import { devReleaseFile, digestEntries } from '../__testUtils__/releaseFiles';
import { parseEnvironment, parseRelease } from './records';

const digestA = `sha256:${'a'.repeat(64)}`;
const digestB = `sha256:${'b'.repeat(64)}`;

describe('parseRelease', () => {
  it('reads digests per service', () => {
    const record = parseRelease(devReleaseFile(digestEntries({ storefront: digestA, cart: digestB })));
    expect(record).toEqual({
      name: 'alpha-shop-dev',
      environmentRef: 'alpha-shop-dev',
      services: { storefront: digestA, cart: digestB },
      sources: {},
      problems: [],
    });
  });

  it('keeps valid services and reports a tag or short digest', () => {
    const record = parseRelease(
      devReleaseFile(
        `    storefront:\n      digest: ${digestA}\n    cart:\n      digest: latest\n    checkout:\n      digest: sha256:abc\n`,
      ),
    );
    expect(record.services).toEqual({ storefront: digestA });
    expect(record.problems).toEqual([
      'cart: digest "latest" is not sha256:<64 lowercase hex>',
      'checkout: digest "sha256:abc" is not sha256:<64 lowercase hex>',
    ]);
  });

  it('rejects an uppercase digest and an invalid service name', () => {
    const record = parseRelease(
      devReleaseFile(`    Store:\n      digest: ${digestA}\n    cart:\n      digest: sha256:${'A'.repeat(64)}\n`),
    );
    expect(record.services).toEqual({});
    expect(record.problems).toHaveLength(2);
  });

  it.each([
    ['malformed YAML', 'kind: Release\n  bad: [indent', /not valid YAML/],
    ['wrong kind', 'apiVersion: platform.refplat.org/v1beta1\nkind: Environment\n', /kind is "Environment"/],
    ['wrong apiVersion', 'apiVersion: v1\nkind: Release\n', /apiVersion is "v1"/],
    ['a list', '- a\n- b\n', /not a Release object/],
    ['services as a list', devReleaseFile('    - storefront\n'), /spec.services must be a mapping/],
  ])('throws on %s', (_name, text, message) => {
    expect(() => parseRelease(text)).toThrow(message);
  });
});

it('reads the source commit CI recorded next to a digest', () => {
  const record = parseRelease(
    devReleaseFile(
      `    storefront:\n      digest: ${digestA}\n      source:\n        repository: alpha/storefront\n        revision: ${'c'.repeat(40)}\n    cart:\n      digest: ${digestB}\n      source: {repository: 'not a repo', revision: main}\n`,
    ),
  );
  expect(record.sources).toEqual({ storefront: { repository: 'alpha/storefront', revision: 'c'.repeat(40) } });
});

describe('parseEnvironment', () => {
  it('lists the declared services', () => {
    const record = parseEnvironment(`apiVersion: platform.refplat.org/v1beta1
kind: Environment
metadata:
  name: alpha-shop-uat
spec:
  team: alpha
  product: shop
  stage: uat
  services:
    - name: storefront
    - name: cart
    - name: Bad_Name
`);
    expect(record.services).toEqual(['storefront', 'cart']);
    expect(record.problems).toEqual(['"Bad_Name" is not a valid service name']);
  });
});
