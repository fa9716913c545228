import { bundleFromJSON } from '@sigstore/bundle';
import { TrustedRoot } from '@sigstore/protobuf-specs';
import { Verifier, toSignedEntity, toTrustMaterial } from '@sigstore/verify';
import { CheckedBundle } from '@refplat/plugin-promotions-common';
import { envelopeStatement } from './bundleStatement';
import { verificationProblem } from './verificationProblem';

/** The OCI artifact type of a sigstore bundle (cosign's new bundle format, `cosign attest --new-bundle-format`). */
export const SIGSTORE_BUNDLE_V03 = 'application/vnd.dev.sigstore.bundle.v0.3+json';

export interface SigstoreBundleVerifierOptions {
  /** Bytes of a bundle read at most; a keyless bundle is a few kilobytes. */
  maxBytes?: number;
}

/**
 * Verifies sigstore bundles (v0.3 JSON over a DSSE envelope, as cosign's
 * keyless sign and attest write them) against one trusted root: the
 * certificate chains to the root's Fulcio CA and carries a valid SCT, the
 * transparency-log entry is included in the root's Rekor and matches the
 * envelope, and the signature is over the envelope's statement. Which signer
 * is the right one is not decided here: the signer is returned, and
 * -common's `provenanceVerdict` compares it with the policy.
 *
 * Bad input (not JSON, a malformed bundle, one from another authority) is an
 * answer, never an exception.
 */
export class SigstoreBundleVerifier {
  private readonly verifier: Verifier;
  private readonly maxBytes: number;

  /**
   * @param trustedRoot - a Sigstore TrustedRoot as JSON (the public-good
   *   one from TUF, or a private Sigstore's file). Throws when it is not one:
   *   that is a configuration mistake, said at start.
   */
  constructor(trustedRoot: unknown, options: SigstoreBundleVerifierOptions = {}) {
    let root: TrustedRoot;
    try {
      root = TrustedRoot.fromJSON(trustedRoot);
      this.verifier = new Verifier(toTrustMaterial(root));
    } catch (error) {
      throw new Error(`the trusted root is not a Sigstore TrustedRoot: ${error instanceof Error ? error.message : String(error)}`);
    }
    // The protobuf reader takes anything for an empty root; one that trusts no CA or log would refuse every bundle.
    if (root.certificateAuthorities.length === 0 || root.tlogs.length === 0) {
      throw new Error('the trusted root names no certificate authority or no transparency log');
    }
    this.maxBytes = options.maxBytes ?? 1024 * 1024;
  }

  check(bundleBytes: Buffer): CheckedBundle {
    if (bundleBytes.length > this.maxBytes) {
      return { verified: false, problem: `malformed bundle: ${bundleBytes.length} bytes, over the ${this.maxBytes} read at most` };
    }
    let json: unknown;
    try {
      json = JSON.parse(bundleBytes.toString('utf8'));
    } catch {
      return { verified: false, problem: 'malformed bundle: it is not JSON' };
    }
    const claimed = envelopeStatement((json as { dsseEnvelope?: unknown } | null)?.dsseEnvelope);
    if (!('statement' in claimed)) return { verified: false, ...claimed };
    const { predicateType } = claimed.statement;
    try {
      const bundle = bundleFromJSON(json);
      const signer = this.verifier.verify(toSignedEntity(bundle));
      const identity = signer.identity?.subjectAlternativeName;
      const issuer = signer.identity?.extensions?.issuer;
      if (!identity || !issuer) {
        return { verified: false, predicateType, problem: 'the certificate names no identity or no OIDC issuer' };
      }
      // The statement the signature covers: the verified envelope's bytes, not the JSON read before.
      const signed = envelopeStatement(bundle.content.$case === 'dsseEnvelope' ? bundle.content.dsseEnvelope : undefined);
      if (!('statement' in signed)) return { verified: false, predicateType, problem: signed.problem };
      return { verified: true, signer: { issuer, identity }, statement: signed.statement };
    } catch (error) {
      return { verified: false, predicateType, problem: verificationProblem(error) };
    }
  }
}
