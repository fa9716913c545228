import { COSIGN_SIGN_V1, SLSA_PROVENANCE_V1, readStatement } from './statement';

const HEX = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);

/** As slsa-github-generator's container workflow writes it. */
const slsa = {
  _type: 'https://in-toto.io/Statement/v1',
  subject: [{ name: 'registry.refplat.org/team-alpha/shop-storefront', digest: { sha256: HEX } }],
  predicateType: SLSA_PROVENANCE_V1,
  predicate: {
    buildDefinition: {
      buildType: 'https://slsa-framework.github.io/github-actions-buildtypes/workflow/v1',
      externalParameters: { workflow: { ref: 'refs/heads/main', repository: 'https://github.com/refplat/shop', path: '.github/workflows/build-sign.yml' } },
      resolvedDependencies: [{ uri: 'git+https://github.com/refplat/shop@refs/heads/main', digest: { gitCommit: 'c0ffee' } }],
    },
    runDetails: { builder: { id: 'https://github.com/refplat/shop/.github/workflows/provenance.yml@refs/heads/main' } },
  },
};

describe('readStatement', () => {
  it.each([
    [
      'SLSA provenance v1: builder and source',
      slsa,
      {
        predicateType: SLSA_PROVENANCE_V1,
        subjectDigests: [`sha256:${HEX}`],
        builderId: 'https://github.com/refplat/shop/.github/workflows/provenance.yml@refs/heads/main',
        sourceRepo: 'https://github.com/refplat/shop',
        sourceCommit: 'c0ffee',
      },
    ],
    [
      'SLSA without externalParameters.workflow: the source from the git dependency',
      { ...slsa, predicate: { ...slsa.predicate, buildDefinition: { resolvedDependencies: slsa.predicate.buildDefinition.resolvedDependencies } } },
      expect.objectContaining({ sourceRepo: 'https://github.com/refplat/shop', sourceCommit: 'c0ffee' }),
    ],
    [
      "cosign's sign statement: subjects only",
      { subject: [{ digest: { sha256: HEX } }, { digest: { sha256: OTHER } }], predicateType: COSIGN_SIGN_V1 },
      { predicateType: COSIGN_SIGN_V1, subjectDigests: [`sha256:${HEX}`, `sha256:${OTHER}`] },
    ],
    ['a subject without sha256 is left out', { subject: [{ digest: { sha512: HEX } }, { digest: { sha256: HEX } }], predicateType: 'x' }, { predicateType: 'x', subjectDigests: [`sha256:${HEX}`] }],
    ['not an object', 'statement', { problem: 'the statement is not a JSON object' }],
    ['an array', [slsa], { problem: 'the statement is not a JSON object' }],
    ['no predicateType', { subject: slsa.subject }, { problem: 'the statement has no predicateType' }],
    ['no subject', { predicateType: SLSA_PROVENANCE_V1 }, { problem: 'the statement has no subject' }],
    ['subjects without a usable digest', { predicateType: 'x', subject: [{ digest: { sha256: 'short' } }, null] }, { problem: 'no subject of the statement has a sha256 digest' }],
    ['a SLSA predicate that is not an object', { ...slsa, predicate: 7 }, { predicateType: SLSA_PROVENANCE_V1, subjectDigests: [`sha256:${HEX}`] }],
  ])('%s', (_case, statement, expected) => {
    expect(readStatement(statement)).toEqual(expected);
  });

  it('reads at most 64 subjects', () => {
    const subject = Array.from({ length: 10_000 }, () => ({ digest: { sha256: HEX } }));
    const read = readStatement({ predicateType: 'x', subject });
    expect('subjectDigests' in read && read.subjectDigests).toHaveLength(64);
  });
});
