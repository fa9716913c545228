/**
 * What the ladder says about where a digest came from (seed 000: "admission
 * can verify that this specific digest was signed by this specific pipeline
 * from this specific commit").
 *
 * - `verified`: signed by the build-sign workflow and attested with SLSA
 *   provenance by the isolated provenance workflow, both checked.
 * - `unverified`: the digest is in the registry, but a signature or the
 *   provenance is missing.
 * - `failed`: something is wrong: the digest never reached the registry, a
 *   signature or attestation does not verify, or it names another signer,
 *   builder or digest.
 * - `unknown`: the registry could not be asked; never taken for `verified`.
 * - `checking`: a view's answer while the registry is being asked (a view
 *   never waits on it); the ladder is pushed again when the look ends.
 *   Never taken for `verified`: requests and the Gate wait for the look.
 *
 * @public
 */
export type ProvenanceState = 'verified' | 'unverified' | 'failed' | 'unknown' | 'checking';

/** @public */
export interface Provenance {
  state: ProvenanceState;
  /** The source repository the SLSA provenance names. */
  sourceRepo?: string;
  /** The source commit the SLSA provenance names. */
  sourceCommit?: string;
  /** The signature's certificate identity (e.g. the build-sign workflow). */
  signer?: string;
  /** The provenance's builder identity (the provenance workflow). */
  builder?: string;
  /** Why the state is what it is, one sentence each, for people. */
  reasons: string[];
}

/**
 * `enforce` refuses what is not verified, `warn` shows it and lets it
 * through, `off` reads nothing.
 *
 * @public
 */
export type ProvenanceMode = 'enforce' | 'warn' | 'off';

/** A keyless signer: the OIDC issuer and the certificate's identity (its SAN). @public */
export interface SignerIdentity {
  issuer: string;
  identity: string;
}
