import { parseRelease, renderRelease, setReleaseDigest } from './releaseFile';
import { parseEnvironment, renderEnvironment } from './environmentFile';
import { parseRecordPath, releasePath } from './layout';

const key = { team: 'alpha', product: 'shop', stage: 'dev' };
const a = `sha256:${'a'.repeat(64)}`;
const b = `sha256:${'b'.repeat(64)}`;
const c = `sha256:${'c'.repeat(64)}`;

describe('Release records', () => {
  it('renders the contract format with comments and parses back', () => {
    const text = renderRelease(key, { storefront: a, cart: b });
    expect(text).toMatch(/^# Release record for alpha\/shop at stage dev\./);
    expect(text).toContain(
      'apiVersion: platform.refplat.org/v1beta1\nkind: Release\nmetadata:\n  name: alpha-shop-dev\n',
    );
    expect(text).toContain(
      `  environmentRef: alpha-shop-dev\n  services: # one entry per Service; never a tag, always a digest\n    storefront:\n      digest: ${a}\n`,
    );
    expect(parseRelease(text)).toEqual({
      name: 'alpha-shop-dev',
      environmentRef: 'alpha-shop-dev',
      services: { storefront: a, cart: b },
    });
  });

  it('changes only the digest bytes of one service', () => {
    const text = `# keep me\n${renderRelease(key, { storefront: a, cart: b })}# trailing comment\n`;
    const edited = setReleaseDigest(text, 'cart', c);
    expect(edited).toBe(text.replace(b, c));
    expect(parseRelease(edited).services).toEqual({ storefront: a, cart: c });
  });

  it('keeps an inline comment after the digest', () => {
    const text = renderRelease(key, { storefront: a }).replace(
      a,
      `${a} # built from 1f2e3d`,
    );
    expect(setReleaseDigest(text, 'storefront', c)).toBe(text.replace(a, c));
  });

  it('appends a service that is not listed yet', () => {
    const text = renderRelease(key, { storefront: a });
    const edited = setReleaseDigest(text, 'cart', b);
    expect(edited.startsWith(text)).toBe(true);
    expect(parseRelease(edited).services).toEqual({ storefront: a, cart: b });
  });

  it('rejects something that is not a Release', () => {
    expect(() => parseRelease('kind: Environment\n')).toThrow(
      'expected kind Release',
    );
    expect(() => parseRelease('spec: [unclosed\n')).toThrow('invalid YAML');
  });
});

describe('Environment records and paths', () => {
  it('round-trips an Environment', () => {
    expect(
      parseEnvironment(renderEnvironment(key, ['storefront', 'cart'])),
    ).toEqual({
      name: 'alpha-shop-dev',
      team: 'alpha',
      product: 'shop',
      stage: 'dev',
      services: ['storefront', 'cart'],
    });
  });

  it('recognises record paths', () => {
    expect(releasePath(key)).toBe('gitops/releases/alpha/shop/dev.yaml');
    expect(
      parseRecordPath('gitops/releases', 'gitops/releases/alpha/shop/dev.yaml'),
    ).toEqual(key);
    expect(
      parseRecordPath(
        'gitops/releases',
        'gitops/releases/alpha/shop/README.md',
      ),
    ).toBeUndefined();
    expect(
      parseRecordPath('gitops/releases', 'gitops/releases/alpha/dev.yaml'),
    ).toBeUndefined();
  });
});
