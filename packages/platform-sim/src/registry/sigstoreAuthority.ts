import { bundleToJSON } from '@sigstore/bundle';
import { DSSEBundleBuilder, FulcioSigner, RekorWitness } from '@sigstore/sign';
import { startSigstoreServer } from './sigstoreServer';
import { trustedRootOf } from './trustedRoot';

/** The DSSE payload type of an in-toto statement. */
export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';

/** A keyless signer: the OIDC issuer and the identity its certificate names (the URI SAN). */
export interface SignerIdentity {
  issuer: string;
  identity: string;
}

/** A local Sigstore: a CA with a CT log (like Fulcio) and a transparency log (like Rekor). */
export interface SigstoreAuthority {
  /** trusted_root.json (media type application/vnd.dev.sigstore.trustedroot+json;version=0.1) naming this CA, CT log and transparency log. */
  trustedRoot: object;
  /** A sigstore bundle v0.3 (JSON) over a DSSE envelope of the in-toto statement, signed keylessly as `signer`. */
  signStatement(statement: object, signer: SignerIdentity): Promise<object>;
  stop(): Promise<void>;
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * The OIDC token CI would hold: `iss` becomes the certificate's issuer
 * extensions and `sub` its URI SAN. Unsigned, because @sigstore/mock's Fulcio
 * reads the claims without checking a signature (a real one asks the issuer).
 */
function identityToken(signer: SignerIdentity): string {
  const now = Math.floor(Date.now() / 1000);
  const claims = { iss: signer.issuer, sub: signer.identity, aud: 'sigstore', iat: now, exp: now + 600 };
  return `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;
}

/**
 * Starts a local Sigstore on a free port. Each signing runs sigstore-js's own
 * keyless flow: an ephemeral key, a ten-minute certificate from the CA for the
 * signer's identity (with an embedded SCT from the CT log), the DSSE envelope
 * signed with it and logged in the transparency log as a `dsse` entry.
 */
export async function startSigstoreAuthority(): Promise<SigstoreAuthority> {
  // Whole seconds: the log's integrated time, which verifiers check against this, has none.
  const since = new Date(Math.floor(Date.now() / 1000) * 1000);
  const server = await startSigstoreServer();
  const fetchOptions = { retry: false, timeout: 10_000 };
  return {
    trustedRoot: trustedRootOf(server, since),
    async signStatement(statement, signer) {
      const builder = new DSSEBundleBuilder({
        signer: new FulcioSigner({
          fulcioBaseURL: server.url,
          identityProvider: { getToken: async () => identityToken(signer) },
          ...fetchOptions,
        }),
        witnesses: [new RekorWitness({ rekorBaseURL: server.url, entryType: 'dsse', ...fetchOptions })],
      });
      const bundle = await builder.create({ data: Buffer.from(JSON.stringify(statement)), type: IN_TOTO_PAYLOAD_TYPE });
      return bundleToJSON(bundle);
    },
    stop: () => server.stop(),
  };
}
