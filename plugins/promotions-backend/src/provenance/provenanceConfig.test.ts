import { ConfigReader } from '@backstage/config';
import { readProvenanceConfig } from './provenanceConfig';

const STAGES = ['dev', 'test', 'uat', 'staging', 'prod'];
const read = (provenance?: object) => readProvenanceConfig(provenance ? new ConfigReader(provenance as any) : undefined, STAGES);

const ENFORCE = {
  mode: 'enforce',
  registry: { url: 'https://registry.refplat.org' },
  trustedRoot: { file: '/etc/sigstore/trusted_root.json' },
  signer: { identity: 'https://github.com/refplat/{product}/.github/workflows/build-sign.yml@refs/heads/main' },
  builder: { identity: 'https://github.com/refplat/{product}/.github/workflows/provenance.yml@refs/heads/main' },
};

describe('readProvenanceConfig', () => {
  it('is off until configured', () => {
    expect(read()).toEqual({ mode: 'off' });
    expect(read({ mode: 'off', registry: { url: 'x' } })).toEqual({ mode: 'off' });
  });

  it("reads enforce with the seeds' defaults: every stage, GitHub Actions' issuer, 4 requests at once, 10 s each, a minute's recheck", () => {
    expect(read(ENFORCE)).toEqual({
      mode: 'enforce',
      stages: STAGES,
      registry: { url: 'https://registry.refplat.org', concurrency: 4, timeoutMs: 10_000, allowedHosts: [] },
      trustedRoot: { file: '/etc/sigstore/trusted_root.json' },
      signer: { issuer: 'https://token.actions.githubusercontent.com', identity: ENFORCE.signer.identity },
      builder: { issuer: 'https://token.actions.githubusercontent.com', identity: ENFORCE.builder.identity },
      // The builder's own identity as builder.id, the signer's repository as the source.
      builderIds: [ENFORCE.builder.identity],
      sourceRepository: 'https://github.com/refplat/{product}',
      recheckMs: 60_000,
      revalidateMs: 24 * 60 * 60_000,
      overridable: false,
    });
  });

  it('reads the SLSA bindings given, and checks no source where the signer is not a GitHub workflow', () => {
    expect(
      read({
        ...ENFORCE,
        builder: { ...ENFORCE.builder, ids: ['https://github.com/slsa-framework/slsa-github-generator/.github/workflows/generator_container_slsa3.yml@refs/tags/v2.1.0'] },
        source: { repository: 'https://github.com/acme/{product}-app' },
      }),
    ).toMatchObject({
      builderIds: ['https://github.com/slsa-framework/slsa-github-generator/.github/workflows/generator_container_slsa3.yml@refs/tags/v2.1.0'],
      sourceRepository: 'https://github.com/acme/{product}-app',
    });
    expect(read({ ...ENFORCE, signer: { issuer: 'https://accounts.example', identity: 'ci@acme.example' } })).not.toHaveProperty('sourceRepository');
    expect(() => read({ ...ENFORCE, source: { repository: 'https://github.com/{org}/{product}' } })).toThrow(
      'promotions.provenance.builder.ids and source.repository have placeholders other than {team}, {product}, {service}: {org}',
    );
  });

  it('reads what is given', () => {
    const config = read({
      ...ENFORCE,
      mode: 'warn',
      stages: ['staging', 'prod'],
      products: ['alpha/shop'],
      registry: { url: 'https://r', username: 'ci', password: 's3cret', concurrency: 2, timeout: { seconds: 3 }, allowedHosts: ['auth.r'] },
      trustedRoot: { url: 'http://sim/sigstore/trusted_root.json' },
      signer: { issuer: 'https://issuer.example', identity: 'a' },
      recheck: { seconds: 30 },
      revalidate: { hours: 6 },
      overridable: true,
    });
    expect(config).toMatchObject({
      mode: 'warn',
      stages: ['staging', 'prod'],
      products: ['alpha/shop'],
      registry: { url: 'https://r', credentials: { username: 'ci', password: 's3cret' }, concurrency: 2, timeoutMs: 3000, allowedHosts: ['auth.r'] },
      trustedRoot: { url: 'http://sim/sigstore/trusted_root.json' },
      signer: { issuer: 'https://issuer.example', identity: 'a' },
      recheckMs: 30_000,
      revalidateMs: 6 * 60 * 60_000,
      overridable: true,
    });
  });

  it("reads the public-good Sigstore's root through TUF: its mirror by default, or another, cached where given, or offline", () => {
    expect(read({ ...ENFORCE, trustedRoot: { tuf: true } })).toMatchObject({
      trustedRoot: { tuf: { mirror: 'https://tuf-repo-cdn.sigstore.dev', offline: false } },
    });
    expect(read({ ...ENFORCE, trustedRoot: { tuf: { mirror: 'https://tuf.example', cachePath: '/var/cache/tuf', offline: true } } })).toMatchObject({
      trustedRoot: { tuf: { mirror: 'https://tuf.example', cachePath: '/var/cache/tuf', offline: true } },
    });
  });

  it.each([
    ['an unknown mode', { ...ENFORCE, mode: 'strict' }, /mode must be 'enforce', 'warn' or 'off', got "strict"/],
    ['an unknown stage', { ...ENFORCE, stages: ['qa'] }, /stages names 'qa', which is not in promotions.stages/],
    ['a Product not named team/product', { ...ENFORCE, products: ['shop'] }, /products names 'shop', which is not team\/product/],
    ['no registry', { ...ENFORCE, registry: undefined }, /registry/],
    ['a username without a password', { ...ENFORCE, registry: { url: 'https://r', username: 'ci' } }, /both username and password, or neither/],
    ['no trusted root', { ...ENFORCE, trustedRoot: undefined }, /trustedRoot needs one of 'file'/],
    ['both a file and a URL', { ...ENFORCE, trustedRoot: { file: 'a', url: 'b' } }, /trustedRoot needs one of 'file'/],
    ['both a file and TUF', { ...ENFORCE, trustedRoot: { file: 'a', tuf: true } }, /trustedRoot needs one of 'file'/],
    ['no signer identity', { ...ENFORCE, signer: {} }, /signer.identity/],
    ['an unknown placeholder', { ...ENFORCE, builder: { identity: 'https://github.com/{org}/{product}' } }, /builder has placeholders other than .*: \{org\}/],
  ])('refuses %s at start-up', (_case, provenance, message) => {
    expect(() => read(provenance)).toThrow(message);
  });
});
