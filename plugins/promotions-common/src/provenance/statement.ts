/** The SLSA provenance predicate the provenance workflow writes (seed 002, step 3). @public */
export const SLSA_PROVENANCE_V1 = 'https://slsa.dev/provenance/v1';
/** The predicate cosign's keyless sign writes into a sigstore bundle's in-toto statement. @public */
export const COSIGN_SIGN_V1 = 'https://sigstore.dev/cosign/sign/v1';
/** The DSSE payload type of an in-toto statement. @public */
export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';

/** What an in-toto statement says that provenance needs. @public */
export interface StatementSummary {
  predicateType: string;
  /** `sha256:<hex>` of each subject. */
  subjectDigests: string[];
  /** SLSA `runDetails.builder.id`. */
  builderId?: string;
  /** SLSA: the source repository the build ran from. */
  sourceRepo?: string;
  /** SLSA: the commit it built. */
  sourceCommit?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 && value.length <= 2048 ? value : undefined;

/** At most this many subjects are read: a statement is about one image, rarely a few. */
const MAX_SUBJECTS = 64;

/**
 * Reads an in-toto statement (a DSSE payload, already JSON-parsed): its
 * predicate type, subject digests and, for SLSA provenance v1, the builder
 * and source. Anything malformed answers a problem, never throws.
 *
 * @public
 */
export function readStatement(statement: unknown): StatementSummary | { problem: string } {
  if (!isObject(statement)) return { problem: 'the statement is not a JSON object' };
  const predicateType = text(statement.predicateType);
  if (!predicateType) return { problem: 'the statement has no predicateType' };
  if (!Array.isArray(statement.subject) || statement.subject.length === 0) {
    return { problem: 'the statement has no subject' };
  }
  const subjectDigests = statement.subject
    .slice(0, MAX_SUBJECTS)
    .map(subject => (isObject(subject) && isObject(subject.digest) ? text(subject.digest.sha256) : undefined))
    .filter((hex): hex is string => !!hex && /^[0-9a-f]{64}$/.test(hex))
    .map(hex => `sha256:${hex}`);
  if (subjectDigests.length === 0) return { problem: 'no subject of the statement has a sha256 digest' };
  return { predicateType, subjectDigests, ...(predicateType === SLSA_PROVENANCE_V1 ? slsaSource(statement.predicate) : {}) };
}

/** The builder and source of a SLSA v1 predicate, as GitHub's generators write them. */
function slsaSource(predicate: unknown): Pick<StatementSummary, 'builderId' | 'sourceRepo' | 'sourceCommit'> {
  if (!isObject(predicate)) return {};
  const runDetails = isObject(predicate.runDetails) ? predicate.runDetails : {};
  const builder = isObject(runDetails.builder) ? runDetails.builder : {};
  const definition = isObject(predicate.buildDefinition) ? predicate.buildDefinition : {};
  const external = isObject(definition.externalParameters) ? definition.externalParameters : {};
  const workflow = isObject(external.workflow) ? external.workflow : {};
  const dependencies = Array.isArray(definition.resolvedDependencies) ? definition.resolvedDependencies : [];
  const source = dependencies.find(dependency => isObject(dependency) && isObject(dependency.digest) && text(dependency.digest.gitCommit));
  const sourceUri = isObject(source) ? text(source.uri) : undefined;
  return {
    builderId: text(builder.id),
    sourceRepo: text(workflow.repository) ?? (sourceUri ? sourceUri.replace(/^git\+/, '').replace(/@.*$/, '') : undefined),
    sourceCommit: isObject(source) && isObject(source.digest) ? text(source.digest.gitCommit) : undefined,
  };
}
