import { bundleFromJSON } from '@sigstore/bundle';
import { TrustedRoot } from '@sigstore/protobuf-specs';
import { X509Certificate } from 'crypto';
import { Verifier, toSignedEntity, toTrustMaterial } from '@sigstore/verify';
import { IN_TOTO_PAYLOAD_TYPE, SigstoreAuthority, startSigstoreAuthority } from './sigstoreAuthority';

const BUILD_SIGN = {
  issuer: 'https://token.actions.githubusercontent.com',
  identity: 'https://github.com/refplat/shop/.github/workflows/build-sign.yml@refs/heads/main',
};
const IMAGE_DIGEST = 'a'.repeat(64);
const statement = {
  _type: 'https://in-toto.io/Statement/v1',
  subject: [{ name: '127.0.0.1/team-alpha/shop-storefront', digest: { sha256: IMAGE_DIGEST } }],
  predicateType: 'https://sigstore.dev/cosign/sign/v1',
  predicate: {},
};

const verify = (trustedRoot: object, bundle: object) =>
  new Verifier(toTrustMaterial(TrustedRoot.fromJSON(trustedRoot))).verify(toSignedEntity(bundleFromJSON(bundle)));

describe('startSigstoreAuthority', () => {
  let authority: SigstoreAuthority;
  let other: SigstoreAuthority;

  beforeAll(async () => {
    [authority, other] = await Promise.all([startSigstoreAuthority(), startSigstoreAuthority()]);
  });
  afterAll(async () => {
    await Promise.all([authority?.stop(), other?.stop()]);
  });

  it('publishes a trusted root with its CA, CT log and transparency log', () => {
    const root = authority.trustedRoot as Record<string, unknown[]>;
    expect(root.mediaType).toBe('application/vnd.dev.sigstore.trustedroot+json;version=0.1');
    expect(root.certificateAuthorities).toHaveLength(1);
    expect(root.ctlogs).toHaveLength(1);
    expect(root.tlogs).toHaveLength(1);
  });

  it('signs a statement keylessly into a v0.3 bundle that @sigstore/verify accepts, naming the signer', async () => {
    const bundle = (await authority.signStatement(statement, BUILD_SIGN)) as Record<string, any>;

    expect(bundle.mediaType).toBe('application/vnd.dev.sigstore.bundle.v0.3+json');
    expect(bundle.dsseEnvelope.payloadType).toBe(IN_TOTO_PAYLOAD_TYPE);
    expect(JSON.parse(Buffer.from(bundle.dsseEnvelope.payload, 'base64').toString())).toEqual(statement);
    expect(bundle.verificationMaterial.certificate.rawBytes).toEqual(expect.any(String));
    expect(bundle.verificationMaterial.tlogEntries[0].kindVersion).toEqual({ kind: 'dsse', version: '0.0.1' });

    const signer = verify(authority.trustedRoot, bundle);
    expect(signer.identity?.subjectAlternativeName).toBe(BUILD_SIGN.identity);
    expect(signer.identity?.extensions?.issuer).toBe(BUILD_SIGN.issuer);
  });

  it("issues a short-lived certificate with the identity as URI SAN and Fulcio's issuer extensions (v1 and v2)", async () => {
    const bundle = (await authority.signStatement(statement, BUILD_SIGN)) as Record<string, any>;
    const der = Buffer.from(bundle.verificationMaterial.certificate.rawBytes, 'base64');
    const certificate = new X509Certificate(der);

    expect(certificate.subjectAltName).toBe(`URI:${BUILD_SIGN.identity}`);
    expect(Date.parse(certificate.validTo) - Date.parse(certificate.validFrom)).toBeLessThanOrEqual(10 * 60_000);
    // Node reads no private extensions: find the DER of each OID followed by the issuer (v1 raw, v2 a UTF8String).
    const issuer = Buffer.from(BUILD_SIGN.issuer);
    const oid = (last: number) => Buffer.from([0x06, 0x0a, 0x2b, 0x06, 0x01, 0x04, 0x01, 0x83, 0xbf, 0x30, 0x01, last]);
    expect(der.indexOf(Buffer.concat([oid(1), Buffer.from([0x04, issuer.length]), issuer]))).toBeGreaterThan(0);
    expect(der.indexOf(Buffer.concat([oid(8), Buffer.from([0x04, issuer.length + 2, 0x0c, issuer.length]), issuer]))).toBeGreaterThan(0);
  });

  it('verifies against a policy of identity and issuer, and refuses another identity', async () => {
    const bundle = await authority.signStatement(statement, BUILD_SIGN);
    const entity = toSignedEntity(bundleFromJSON(bundle));
    const verifier = new Verifier(toTrustMaterial(TrustedRoot.fromJSON(authority.trustedRoot)));

    expect(() => verifier.verify(entity, { subjectAlternativeName: BUILD_SIGN.identity, extensions: { issuer: BUILD_SIGN.issuer } })).not.toThrow();
    expect(() => verifier.verify(entity, { subjectAlternativeName: 'https://github.com/refplat/shop/.github/workflows/provenance.yml@refs/heads/main' })).toThrow(
      /identity|subjectAlternativeName|SAN/i,
    );
  });

  it("gives a bundle that does not verify against another authority's trusted root", async () => {
    const bundle = await other.signStatement(statement, BUILD_SIGN);

    expect(() => verify(other.trustedRoot, bundle)).not.toThrow();
    expect(() => verify(authority.trustedRoot, bundle)).toThrow(/certificate|chain|CA/i);
  });

  it('refuses a bundle whose payload was changed after signing', async () => {
    const bundle = (await authority.signStatement(statement, BUILD_SIGN)) as Record<string, any>;
    const changed = { ...statement, subject: [{ ...statement.subject[0], digest: { sha256: 'b'.repeat(64) } }] };
    const tampered = {
      ...bundle,
      dsseEnvelope: { ...bundle.dsseEnvelope, payload: Buffer.from(JSON.stringify(changed)).toString('base64') },
    };

    expect(() => verify(authority.trustedRoot, tampered)).toThrow(/signature|payload|digest/i);
  });
});
