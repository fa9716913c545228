import { COSIGN_SIGN_V1, SLSA_PROVENANCE_V1 } from './statement';
import { CheckedBundle, ProvenanceFacts, provenanceVerdict } from './verdict';

const DIGEST = `sha256:${'a'.repeat(64)}`;
const OTHER = `sha256:${'b'.repeat(64)}`;
const ISSUER = 'https://token.actions.githubusercontent.com';
const SIGNER = { issuer: ISSUER, identity: 'https://github.com/refplat/shop/.github/workflows/build-sign.yml@refs/heads/main' };
const BUILDER = { issuer: ISSUER, identity: 'https://github.com/refplat/shop/.github/workflows/provenance.yml@refs/heads/main' };
const SUBJECT = 'storefront sha256:aaaaaaa';

const signature = (over: Partial<{ signer: typeof SIGNER; digest: string }> = {}): CheckedBundle => ({
  verified: true,
  signer: over.signer ?? SIGNER,
  statement: { predicateType: COSIGN_SIGN_V1, subjectDigests: [over.digest ?? DIGEST] },
});
const provenance = (
  over: Partial<{ signer: typeof SIGNER; digest: string; builderId: string; sourceRepo: string }> = {},
): CheckedBundle => ({
  verified: true,
  signer: over.signer ?? BUILDER,
  statement: {
    predicateType: SLSA_PROVENANCE_V1,
    subjectDigests: [over.digest ?? DIGEST],
    builderId: over.builderId ?? BUILDER.identity,
    sourceRepo: over.sourceRepo ?? 'https://github.com/refplat/shop',
    sourceCommit: 'c0ffee',
  },
});
const broken = (predicateType: string, problem: string): CheckedBundle => ({ verified: false, predicateType, problem });

const facts = (bundles: CheckedBundle[], over: Partial<ProvenanceFacts> = {}): ProvenanceFacts => ({
  subject: SUBJECT,
  digest: DIGEST,
  manifest: { state: 'present' },
  bundles,
  ...over,
});

const VERIFIED_CELL = {
  signer: SIGNER.identity,
  builder: BUILDER.identity,
  sourceRepo: 'https://github.com/refplat/shop',
  sourceCommit: 'c0ffee',
};

describe('provenanceVerdict', () => {
  it.each<[string, ProvenanceFacts, object]>([
    ['signed and attested by the expected workflows', facts([signature(), provenance()]), { state: 'verified', ...VERIFIED_CELL, reasons: [] }],
    ['one good signature among bad ones is enough', facts([broken(COSIGN_SIGN_V1, 'bad'), signature({ digest: OTHER }), signature(), provenance()]), { state: 'verified', ...VERIFIED_CELL, reasons: [] }],
    ['bundles of other kinds (an SBOM) are left alone', facts([signature(), provenance(), broken('https://spdx.dev/Document', 'x')]), { state: 'verified', ...VERIFIED_CELL, reasons: [] }],
    [
      'not in the registry (--not-pushed)',
      facts([], { manifest: { state: 'absent' } }),
      { state: 'failed', reasons: [`${SUBJECT} never reached the registry: it has no manifest there (look at the CI run's push step)`] },
    ],
    [
      'the registry could not be asked',
      facts([], { manifest: { state: 'unreachable', reason: 'HTTP 503' } }),
      { state: 'unknown', reasons: [`${SUBJECT}: the registry could not be asked: HTTP 503`] },
    ],
    [
      'the signatures could not all be listed',
      facts([signature(), provenance()], { listingProblem: 'HTTP 429 past its retries' }),
      { state: 'unknown', reasons: [`${SUBJECT}: its signatures could not be listed: HTTP 429 past its retries`] },
    ],
    [
      'unsigned (--unsigned)',
      facts([provenance()]),
      {
        state: 'unverified',
        builder: BUILDER.identity,
        sourceRepo: 'https://github.com/refplat/shop',
        sourceCommit: 'c0ffee',
        reasons: [`${SUBJECT} is not signed (look at the build-sign workflow's sign step)`],
      },
    ],
    [
      'no provenance (--no-provenance)',
      facts([signature()]),
      { state: 'unverified', signer: SIGNER.identity, reasons: [`${SUBJECT} has no SLSA provenance from the provenance workflow (look at the provenance workflow's run)`] },
    ],
    ['neither', facts([]), { state: 'unverified', reasons: expect.arrayContaining([expect.stringMatching(/is not signed/), expect.stringMatching(/has no SLSA provenance/)]) }],
    [
      'signed by another workflow (--wrong-signer)',
      facts([signature({ signer: { issuer: ISSUER, identity: 'https://github.com/mallory/x/.github/workflows/sign.yml@refs/heads/main' } }), provenance()]),
      {
        state: 'failed',
        builder: BUILDER.identity,
        sourceRepo: 'https://github.com/refplat/shop',
        sourceCommit: 'c0ffee',
        reasons: [
          `${SUBJECT}: its signature is by https://github.com/mallory/x/.github/workflows/sign.yml@refs/heads/main (issuer ${ISSUER}), not ${SIGNER.identity} (issuer ${ISSUER})`,
        ],
      },
    ],
    [
      'the right identity from another issuer',
      facts([signature({ signer: { issuer: 'https://accounts.example.com', identity: SIGNER.identity } }), provenance()]),
      expect.objectContaining({ state: 'failed', reasons: [expect.stringContaining('(issuer https://accounts.example.com), not')] }),
    ],
    [
      'a signature of another digest (--tampered)',
      facts([signature({ digest: OTHER }), provenance()]),
      expect.objectContaining({ state: 'failed', reasons: [`${SUBJECT}: its signature is for another digest (${OTHER})`] }),
    ],
    [
      'a signature that does not verify',
      facts([broken(COSIGN_SIGN_V1, 'the certificate is not from the trusted root'), provenance()]),
      expect.objectContaining({ state: 'failed', reasons: [`${SUBJECT}: its signature does not verify: the certificate is not from the trusted root`] }),
    ],
    [
      'provenance by the build-sign workflow, not the isolated one',
      facts([signature(), provenance({ signer: SIGNER })]),
      expect.objectContaining({ state: 'failed', reasons: [`${SUBJECT}: its SLSA provenance is by ${SIGNER.identity} (issuer ${ISSUER}), not ${BUILDER.identity} (issuer ${ISSUER})`] }),
    ],
    [
      'provenance of another digest',
      facts([signature(), provenance({ digest: OTHER })]),
      expect.objectContaining({ state: 'failed', reasons: [`${SUBJECT}: its SLSA provenance is for another digest (${OTHER})`] }),
    ],
    [
      'bad beats missing: failed, both reasons',
      facts([broken(SLSA_PROVENANCE_V1, 'malformed bundle')]),
      expect.objectContaining({ state: 'failed', reasons: [expect.stringMatching(/is not signed/), `${SUBJECT}: its SLSA provenance does not verify: malformed bundle`] }),
    ],
  ])('%s', (_case, given, expected) => {
    expect(provenanceVerdict(given, { signer: SIGNER, builder: BUILDER })).toEqual(expected);
  });
});

describe('provenanceVerdict binding the SLSA source and builder (a statement signed by the right workflow, naming others)', () => {
  const POLICY = { signer: SIGNER, builder: BUILDER, sourceRepo: 'https://github.com/refplat/shop', builderIds: [BUILDER.identity] };
  it.each<[string, ProvenanceFacts, object]>([
    ['the expected builder and source', facts([signature(), provenance()]), { state: 'verified', ...VERIFIED_CELL, reasons: [] }],
    [
      'the source as git+…@ref or with .git, in another case',
      facts([signature(), provenance({ sourceRepo: 'git+https://github.com/RefPlat/shop.git' })]),
      { state: 'verified', ...VERIFIED_CELL, sourceRepo: 'git+https://github.com/RefPlat/shop.git', reasons: [] },
    ],
    [
      'a foreign builder.id: failed, and the cell shows none of it',
      facts([signature(), provenance({ builderId: 'https://evil.example/builder@v1' })]),
      {
        state: 'failed',
        signer: SIGNER.identity,
        reasons: [`${SUBJECT}: its SLSA provenance names the builder https://evil.example/builder@v1, not ${BUILDER.identity} (promotions.provenance.builder.ids)`],
      },
    ],
    [
      'a foreign source repository: failed',
      facts([signature(), provenance({ sourceRepo: 'https://github.com/evil/backdoor' })]),
      {
        state: 'failed',
        signer: SIGNER.identity,
        reasons: [
          `${SUBJECT}: its SLSA provenance is of the source repository https://github.com/evil/backdoor, not https://github.com/refplat/shop (promotions.provenance.source.repository)`,
        ],
      },
    ],
    [
      'one statement the policy accepts among refused ones is enough',
      facts([signature(), provenance({ sourceRepo: 'https://github.com/evil/backdoor' }), provenance()]),
      { state: 'verified', ...VERIFIED_CELL, reasons: [] },
    ],
  ])('%s', (_case, given, expected) => {
    expect(provenanceVerdict(given, POLICY)).toEqual(expected);
  });
});
