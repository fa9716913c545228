import { COSIGN_SIGN_V1, SLSA_PROVENANCE_V1, StatementSummary } from './statement';
import { Provenance, SignerIdentity } from './types';

/**
 * One sigstore bundle found for a digest, after Sigstore verified it (or
 * refused to): its signature, certificate chain and transparency-log entry
 * against the trusted root. `predicateType` says what it claims to be, read
 * before verification, so a bundle that fails still counts as a signature or
 * provenance.
 *
 * @public
 */
export type CheckedBundle =
  | { verified: true; signer: SignerIdentity; statement: StatementSummary }
  | { verified: false; predicateType?: string; problem: string };

/** @public */
export type ManifestAnswer = { state: 'present' } | { state: 'absent' } | { state: 'unreachable'; reason: string };

/** What the registry answered about one digest, checked. @public */
export interface ProvenanceFacts {
  /** Names the image in reasons, e.g. `storefront sha256:f6b37d…`. */
  subject: string;
  digest: string;
  /** `HEAD /v2/<name>/manifests/<digest>`. */
  manifest: ManifestAnswer;
  /** Every signature and attestation found for the digest. */
  bundles: CheckedBundle[];
  /** Why the signatures and attestations could not all be listed. */
  listingProblem?: string;
}

/** Who must have signed and attested: the build-sign and the provenance workflow. @public */
export interface ProvenanceExpectations {
  signer: SignerIdentity;
  builder: SignerIdentity;
  /**
   * The repository the SLSA provenance must say the build ran from (a URL,
   * compared without `git+`, `.git` and case). Absent: not checked.
   */
  sourceRepo?: string;
  /** The SLSA `runDetails.builder.id` values accepted. Absent or empty: not checked. */
  builderIds?: string[];
}

const sameSigner = (a: SignerIdentity, b: SignerIdentity) => a.issuer === b.issuer && a.identity === b.identity;
const named = (signer: SignerIdentity) => `${signer.identity} (issuer ${signer.issuer})`;

interface Check {
  /** `ok`: it holds; `missing`: nothing to check; `bad`: something is there and wrong. */
  outcome: 'ok' | 'missing' | 'bad';
  reasons: string[];
  found?: Extract<CheckedBundle, { verified: true }>;
}

/**
 * One check over the bundles of one kind: one good bundle is enough (by the
 * expected signer, over this digest, and nothing in its statement the policy
 * refuses: `refusals`); otherwise say what each is.
 */
function check(
  facts: ProvenanceFacts,
  predicateType: string,
  expected: SignerIdentity,
  missing: string,
  what: string,
  refusals: (statement: StatementSummary) => string[] = () => [],
): Check {
  const bundles = facts.bundles.filter(bundle =>
    bundle.verified ? bundle.statement.predicateType === predicateType : bundle.predicateType === predicateType,
  );
  if (bundles.length === 0) return { outcome: 'missing', reasons: [missing] };
  const signed = bundles.filter(
    (bundle): bundle is Extract<CheckedBundle, { verified: true }> =>
      bundle.verified && bundle.statement.subjectDigests.includes(facts.digest) && sameSigner(bundle.signer, expected),
  );
  const found = signed.find(bundle => refusals(bundle.statement).length === 0);
  if (found) return { outcome: 'ok', reasons: [], found };
  if (signed.length) return { outcome: 'bad', reasons: refusals(signed[0].statement) };
  const reasons = bundles.map(bundle => {
    if (!bundle.verified) return `${facts.subject}: ${what} does not verify: ${bundle.problem}`;
    if (!bundle.statement.subjectDigests.includes(facts.digest)) {
      return `${facts.subject}: ${what} is for another digest (${bundle.statement.subjectDigests.join(', ')})`;
    }
    return `${facts.subject}: ${what} is by ${named(bundle.signer)}, not ${named(expected)}`;
  });
  return { outcome: 'bad', reasons };
}

const comparableRepo = (url: string) =>
  url.trim().toLowerCase().replace(/^git\+/, '').replace(/\/+$/, '').replace(/\.git$/, '');

/** What the SLSA statement names that the policy does not accept: its builder, its source repository. */
function slsaBindingProblems(subject: string, statement: StatementSummary, expected: ProvenanceExpectations): string[] {
  const problems: string[] = [];
  const builders = expected.builderIds ?? [];
  if (builders.length && !builders.includes(statement.builderId ?? '')) {
    problems.push(
      `${subject}: its SLSA provenance names the builder ${statement.builderId ?? '(none)'}, not ${builders.join(' or ')} (promotions.provenance.builder.ids)`,
    );
  }
  if (expected.sourceRepo && comparableRepo(statement.sourceRepo ?? '') !== comparableRepo(expected.sourceRepo)) {
    problems.push(
      `${subject}: its SLSA provenance is of the source repository ${statement.sourceRepo ?? '(none)'}, not ${expected.sourceRepo} (promotions.provenance.source.repository)`,
    );
  }
  return problems;
}

/**
 * Where a digest came from, from what the registry answered and Sigstore
 * verified: verified only with a good signature by the build-sign workflow and
 * SLSA provenance by the isolated provenance workflow, both over this digest.
 *
 * @public
 */
export function provenanceVerdict(facts: ProvenanceFacts, expected: ProvenanceExpectations): Provenance {
  const { manifest, subject } = facts;
  if (manifest.state === 'unreachable') {
    return { state: 'unknown', reasons: [`${subject}: the registry could not be asked: ${manifest.reason}`] };
  }
  if (manifest.state === 'absent') {
    return {
      state: 'failed',
      reasons: [`${subject} never reached the registry: it has no manifest there (look at the CI run's push step)`],
    };
  }
  if (facts.listingProblem) {
    return { state: 'unknown', reasons: [`${subject}: its signatures could not be listed: ${facts.listingProblem}`] };
  }
  const signature = check(facts, COSIGN_SIGN_V1, expected.signer, `${subject} is not signed (look at the build-sign workflow's sign step)`, 'its signature');
  // Signed by the provenance workflow is not enough: SLSA's verification makes its builder and source conditions.
  const provenance = check(
    facts,
    SLSA_PROVENANCE_V1,
    expected.builder,
    `${subject} has no SLSA provenance from the provenance workflow (look at the provenance workflow's run)`,
    'its SLSA provenance',
    statement => slsaBindingProblems(subject, statement, expected),
  );
  // Only an accepted statement speaks on the cell: a foreign repository is not the build's source.
  const statement = provenance.found?.statement;
  const cell = {
    ...(statement?.sourceRepo ? { sourceRepo: statement.sourceRepo } : {}),
    ...(statement?.sourceCommit ? { sourceCommit: statement.sourceCommit } : {}),
    ...(signature.found ? { signer: signature.found.signer.identity } : {}),
    ...(statement ? { builder: statement.builderId ?? provenance.found!.signer.identity } : {}),
  };
  const outcomes = [signature.outcome, provenance.outcome];
  const reasons = [...signature.reasons, ...provenance.reasons];
  if (outcomes.includes('bad')) return { state: 'failed', ...cell, reasons };
  if (outcomes.includes('missing')) return { state: 'unverified', ...cell, reasons };
  return { state: 'verified', ...cell, reasons: [] };
}
