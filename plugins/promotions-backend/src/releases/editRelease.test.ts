import { setReleaseDigests } from './editRelease';

const a = `sha256:${'a'.repeat(64)}`;
const b = `sha256:${'b'.repeat(64)}`;
const c = `sha256:${'c'.repeat(64)}`;
const n = `sha256:${'1'.repeat(64)}`;

function changedLines(before: string, after: string): Array<[string, string]> {
  const left = before.split('\n');
  const right = after.split('\n');
  expect(right).toHaveLength(left.length);
  return left.flatMap((line, i) => (line === right[i] ? [] : [[line, right[i]] as [string, string]]));
}

describe('setReleaseDigests', () => {
  it('changes exactly the digest line, keeping comments, odd key order and other services', () => {
    const before = `# Release for alpha/shop in test.
# Owned by the platform team; edited by promotions.
kind: Release   # kind before apiVersion on purpose
apiVersion: platform.refplat.org/v1beta1
metadata:
  name: alpha-shop-test
spec:
  services:
    # the web front end
    storefront:
      digest: ${a}  # promoted 2026-11-01
      notes: keep me
    cart: {digest: ${b}}
    checkout:
      digest: "${c}"
  environmentRef: alpha-shop-test
`;
    const after = setReleaseDigests(before, { storefront: n });
    expect(changedLines(before, after)).toEqual([
      [`      digest: ${a}  # promoted 2026-11-01`, `      digest: ${n}  # promoted 2026-11-01`],
    ]);
  });

  it('keeps quoting and flow style when changing several services', () => {
    const before = `apiVersion: platform.refplat.org/v1beta1
kind: Release
metadata: {name: alpha-shop-test}
spec:
  environmentRef: alpha-shop-test
  services:
    cart: {digest: ${b}}
    checkout:
      digest: "${c}"
`;
    const after = setReleaseDigests(before, { cart: n, checkout: a });
    expect(changedLines(before, after)).toEqual([
      [`    cart: {digest: ${b}}`, `    cart: {digest: ${n}}`],
      [`      digest: "${c}"`, `      digest: "${a}"`],
    ]);
  });

  it('adds a service the Release does not list yet', () => {
    const before = `apiVersion: platform.refplat.org/v1beta1
kind: Release
metadata:
  name: alpha-shop-uat
spec:
  environmentRef: alpha-shop-uat
  services:
    storefront:
      digest: ${a}
`;
    const after = setReleaseDigests(before, { cart: n });
    expect(after).toContain(`storefront:\n      digest: ${a}`);
    expect(after).toContain(`cart:\n      digest: ${n}`);
  });

  it('refuses a file that is not YAML', () => {
    expect(() => setReleaseDigests('spec: [unclosed', { cart: n })).toThrow(/not valid YAML/);
  });
});
