import fs from 'fs';
import os from 'os';
import path from 'path';
import { SigstoreAuthority, cosignSignStatement, startSigstoreAuthority } from '@refplat/platform-sim';
import { SigstoreBundleVerifier } from './SigstoreBundleVerifier';
import { PUBLIC_GOOD_TUF_MIRROR } from './provenanceConfig';
import { TrustedRoots } from './trustedRoot';

const BUILD_SIGN = {
  issuer: 'https://token.actions.githubusercontent.com',
  identity: 'https://github.com/refplat/shop/.github/workflows/build-sign.yml@refs/heads/main',
};

/**
 * The public-good Sigstore's trusted root through TUF (@sigstore/tuf). This machine
 * cannot reach the mirror, so the online path is tested failing only; `offline`
 * reads the trusted_root.json the library embeds.
 */
describe('the public-good trusted root through TUF', () => {
  let cachePath: string;
  let authority: SigstoreAuthority;
  beforeAll(async () => {
    cachePath = fs.mkdtempSync(path.join(os.tmpdir(), 'tuf-cache-'));
    authority = await startSigstoreAuthority();
  }, 60_000);
  afterAll(async () => {
    fs.rmSync(cachePath, { recursive: true, force: true });
    await authority?.stop();
  });

  const publicGood = () => new TrustedRoots({ tuf: { mirror: PUBLIC_GOOD_TUF_MIRROR, offline: true } });

  it("reads Fulcio's certificate authorities and Rekor's log, and identifies the root by its content", async () => {
    const { root, id } = await publicGood().load();
    const trusted = root as { certificateAuthorities: Array<{ uri: string }>; tlogs: Array<{ baseUrl: string }> };
    expect(trusted.certificateAuthorities.map(ca => ca.uri)).toContain('https://fulcio.sigstore.dev');
    expect(trusted.tlogs.map(log => log.baseUrl)).toContain('https://rekor.sigstore.dev');
    expect((await publicGood().load()).id).toBe(id);
  });

  it('verifies nothing a private Sigstore signed: its certificate is from another CA', async () => {
    const { root } = await publicGood().load();
    const bundle = await authority.signStatement(cosignSignStatement('registry.refplat.org/team-alpha/shop-storefront', `sha256:${'ab'.repeat(32)}`), BUILD_SIGN);
    const checked = new SigstoreBundleVerifier(root).check(Buffer.from(JSON.stringify(bundle)));
    expect(checked.verified).toBe(false);
  });

  it('fails, and tries again on the next load, when the mirror cannot be read', async () => {
    const unreachable = new TrustedRoots({
      tuf: { mirror: 'http://127.0.0.1:9/unreachable', cachePath, offline: false },
    });
    await expect(unreachable.load()).rejects.toThrow();
    await expect(unreachable.load()).rejects.toThrow();
  });
});
