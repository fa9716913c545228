import fc from 'fast-check';
import { COSIGN_SIGN_V1, SLSA_PROVENANCE_V1 } from '@refplat/plugin-promotions-common';
import { SigstoreAuthority, cosignSignStatement, slsaProvenanceStatement, startSigstoreAuthority } from '@refplat/platform-sim';
import { SigstoreBundleVerifier } from './SigstoreBundleVerifier';

const BUILD_SIGN = {
  issuer: 'https://token.actions.githubusercontent.com',
  identity: 'https://github.com/refplat/shop/.github/workflows/build-sign.yml@refs/heads/main',
};
const PROVENANCE = {
  issuer: 'https://token.actions.githubusercontent.com',
  identity: 'https://github.com/refplat/shop/.github/workflows/provenance.yml@refs/heads/main',
};
const HEX = 'ab'.repeat(32);
const COMMIT = '0123456789abcdef0123456789abcdef01234567';

const IMAGE = 'registry.refplat.org/team-alpha/shop-storefront';
const signature = (hex: string) => cosignSignStatement(IMAGE, `sha256:${hex}`);
const provenance = (hex: string) =>
  slsaProvenanceStatement({
    image: IMAGE,
    digest: `sha256:${hex}`,
    sourceRepo: 'https://github.com/refplat/shop',
    sourceCommit: COMMIT,
    workflowPath: '.github/workflows/build-sign.yml',
    builderId: PROVENANCE.identity,
  });

const bytes = (value: unknown) => Buffer.from(JSON.stringify(value));
/** A deep copy to change one part of a real bundle. */
const copy = <T>(value: T): any => JSON.parse(JSON.stringify(value));

describe('SigstoreBundleVerifier', () => {
  let authority: SigstoreAuthority;
  let other: SigstoreAuthority;
  let verifier: SigstoreBundleVerifier;
  let signed: object;
  let attested: object;

  beforeAll(async () => {
    [authority, other] = await Promise.all([startSigstoreAuthority(), startSigstoreAuthority()]);
    verifier = new SigstoreBundleVerifier(authority.trustedRoot);
    [signed, attested] = await Promise.all([
      authority.signStatement(signature(HEX), BUILD_SIGN),
      authority.signStatement(provenance(HEX), PROVENANCE),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([authority?.stop(), other?.stop()]);
  });

  it('verifies a keyless signature and names its signer and statement', () => {
    expect(verifier.check(bytes(signed))).toEqual({
      verified: true,
      signer: BUILD_SIGN,
      statement: { predicateType: COSIGN_SIGN_V1, subjectDigests: [`sha256:${HEX}`] },
    });
  });

  it('verifies SLSA provenance and reads its builder, source repository and commit', () => {
    expect(verifier.check(bytes(attested))).toEqual({
      verified: true,
      signer: PROVENANCE,
      statement: {
        predicateType: SLSA_PROVENANCE_V1,
        subjectDigests: [`sha256:${HEX}`],
        builderId: PROVENANCE.identity,
        sourceRepo: 'https://github.com/refplat/shop',
        sourceCommit: COMMIT,
      },
    });
  });

  it('answers verified for another signer: which signer is right is the verdict\'s to say', async () => {
    const byOther = await authority.signStatement(signature(HEX), PROVENANCE);
    expect(verifier.check(bytes(byOther))).toMatchObject({ verified: true, signer: PROVENANCE });
  });

  it("refuses a bundle from another authority, and still says what it claims", async () => {
    const foreign = await other.signStatement(provenance(HEX), PROVENANCE);
    expect(verifier.check(bytes(foreign))).toEqual({
      verified: false,
      predicateType: SLSA_PROVENANCE_V1,
      problem: expect.stringMatching(/^the certificate is not from the trusted root/),
    });
  });

  it('refuses a statement changed after signing (another digest put in)', () => {
    const tampered = copy(signed);
    tampered.dsseEnvelope.payload = bytes(signature('cd'.repeat(32))).toString('base64');
    expect(verifier.check(bytes(tampered))).toEqual({
      verified: false,
      predicateType: COSIGN_SIGN_V1,
      problem: 'its transparency-log entry is for other content: DSSE payload hash mismatch',
    });
  });

  it('refuses a signature changed after signing', () => {
    const tampered = copy(signed);
    const sig = Buffer.from(tampered.dsseEnvelope.signatures[0].sig, 'base64');
    sig[sig.length - 1] ^= 0x01;
    tampered.dsseEnvelope.signatures[0].sig = sig.toString('base64');
    // The log entry records the signature too, so Sigstore finds the change there first.
    expect(verifier.check(bytes(tampered))).toEqual({
      verified: false,
      predicateType: COSIGN_SIGN_V1,
      problem: 'its transparency-log entry is for other content: tlog entry signature mismatch',
    });
  });

  it('refuses a bundle without a transparency-log entry: nothing says the short-lived certificate was valid then', () => {
    const unlogged = copy(signed);
    unlogged.verificationMaterial.tlogEntries = [];
    expect(verifier.check(bytes(unlogged))).toEqual({
      verified: false,
      predicateType: COSIGN_SIGN_V1,
      problem: 'no transparency-log entry (nor a trusted timestamp) says when it was signed',
    });
  });

  it.each<[string, (bundle: any) => unknown, RegExp]>([
    ['not JSON', () => '{"mediaType":', /^malformed bundle: it is not JSON$/],
    ['a JSON array', () => [1, 2], /^malformed bundle: it has no DSSE envelope/],
    ['a message signature, not DSSE', bundle => ({ ...bundle, dsseEnvelope: undefined, messageSignature: {} }), /no DSSE envelope/],
    ['another payload type', bundle => ({ ...bundle, dsseEnvelope: { ...bundle.dsseEnvelope, payloadType: 'text/plain' } }), /payload type is text\/plain/],
    // Found by the fuzz below (seed -1716212185): String() throws on this value.
    ['a payload type whose toString is no function', bundle => ({ ...bundle, dsseEnvelope: { ...bundle.dsseEnvelope, payloadType: { toString: '' } } }), /payload type is \{"toString":""\}/],
    ['a payload that is not JSON', bundle => ({ ...bundle, dsseEnvelope: { ...bundle.dsseEnvelope, payload: 'bm90IGpzb24=' } }), /DSSE payload is not JSON/],
    ['no verification material', bundle => ({ ...bundle, verificationMaterial: undefined }), /^malformed bundle: invalid verificationMaterial/],
    ['another media type', bundle => ({ ...bundle, mediaType: 'text/plain' }), /^malformed bundle: invalid mediaType/],
    ['a certificate that is not DER', bundle => {
      const broken = copy(bundle);
      broken.verificationMaterial.certificate.rawBytes = 'AAAA';
      return broken;
    }, /^malformed bundle: unsupported tag/],
  ])('answers a malformed bundle (%s) with a problem, not an exception', (_what, change, problem) => {
    const input = change(signed);
    const answer = verifier.check(typeof input === 'string' ? Buffer.from(input) : bytes(input));
    expect(answer).toMatchObject({ verified: false, problem: expect.stringMatching(problem) });
  });

  it('keeps the claimed predicate type of a statement it cannot use', () => {
    const noSubject = copy(signed);
    noSubject.dsseEnvelope.payload = bytes({ ...signature(HEX), subject: [] }).toString('base64');
    expect(verifier.check(bytes(noSubject))).toEqual({
      verified: false,
      predicateType: COSIGN_SIGN_V1,
      problem: 'malformed bundle: the statement has no subject',
    });
  });

  it('reads no bundle over its size bound', () => {
    const small = new SigstoreBundleVerifier(authority.trustedRoot, { maxBytes: 100 });
    expect(small.check(bytes(signed))).toEqual({ verified: false, problem: expect.stringMatching(/over the 100 read at most/) });
  });

  it('refuses a trusted root that trusts nothing, at construction', () => {
    expect(() => new SigstoreBundleVerifier({})).toThrow(/no certificate authority or no transparency log/);
    expect(() => new SigstoreBundleVerifier({ ...authority.trustedRoot, tlogs: [] })).toThrow(/no transparency log/);
  });

  describe('fuzzed (fast-check): any input answers a CheckedBundle and never throws', () => {
    /** A CheckedBundle's shape: verified with a signer and statement, or refused with a problem. */
    const shapeOf = (answer: unknown): string => {
      const { verified, signer, statement, problem } = (answer ?? {}) as Record<string, unknown>;
      if (verified === true && typeof signer === 'object' && typeof statement === 'object') return 'verified';
      if (verified === false && typeof problem === 'string' && problem.length > 0) return 'refused';
      return `not a CheckedBundle: ${JSON.stringify(answer)}`;
    };

    it('arbitrary JSON and arbitrary bytes', () => {
      fc.assert(
        fc.property(fc.oneof(fc.jsonValue().map(bytes), fc.uint8Array({ maxLength: 512 }).map(array => Buffer.from(array))), input => {
          expect(shapeOf(verifier.check(input))).toMatch(/^(verified|refused)$/);
        }),
        { numRuns: 300 },
      );
    });

    /** Every path to a value in a JSON document, so a mutation can replace any one of them. */
    const pathsOf = (value: unknown, at: string[] = []): string[][] =>
      typeof value === 'object' && value !== null
        ? [at, ...Object.entries(value).flatMap(([key, child]) => pathsOf(child, [...at, key]))]
        : [at];
    const replaced = (document: unknown, path: string[], value: unknown): unknown => {
      if (path.length === 0) return value;
      const changed = copy(document);
      let parent = changed;
      for (const key of path.slice(0, -1)) parent = parent[key];
      parent[path[path.length - 1]] = value;
      return changed;
    };

    it('real bundles with one part replaced by arbitrary JSON: what still verifies says the signed statement', () => {
      const bundles = [signed, attested];
      fc.assert(
        fc.property(fc.nat(1), fc.nat(), fc.jsonValue({ maxDepth: 3 }), (which, pathIndex, value) => {
          const bundle = bundles[which];
          const paths = pathsOf(bundle);
          const path = paths[pathIndex % paths.length];
          const mutated = replaced(bundle, path, value);
          const answer = verifier.check(bytes(mutated));
          expect(shapeOf(answer)).toMatch(/^(verified|refused)$/);
          // What still verifies had only parts changed that are neither signed nor checked: the statement is the signed one.
          expect(answer.verified ? answer.statement.subjectDigests : [`sha256:${HEX}`]).toEqual([`sha256:${HEX}`]);
        }),
        { numRuns: 300 },
      );
    });

    it('real bundles with bytes flipped in their JSON text', () => {
      const text = JSON.stringify(signed);
      fc.assert(
        fc.property(fc.array(fc.record({ at: fc.nat(text.length - 1), byte: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 8 }), flips => {
          const flipped = Buffer.from(text);
          for (const { at, byte } of flips) flipped[at] = byte;
          expect(shapeOf(verifier.check(flipped))).toMatch(/^(verified|refused)$/);
        }),
        { numRuns: 300 },
      );
    });
  });
});
