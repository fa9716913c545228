import { HashAlgorithm, PublicKeyDetails, TrustedRoot } from '@sigstore/protobuf-specs';
import crypto from 'crypto';
import { SigstoreServer } from './sigstoreServer';

/** The media type of the public-good trusted_root.json, which every Sigstore client reads. */
export const TRUSTED_ROOT_MEDIA_TYPE = 'application/vnd.dev.sigstore.trustedroot+json;version=0.1';

/**
 * The trusted_root.json of a local Sigstore: its CA, CT log and transparency
 * log, valid from `since` (whole seconds: verifiers compare it with a log's
 * integrated time, which has no fractions).
 */
export function trustedRootOf(sigstore: SigstoreServer, since: Date): object {
  const validFor = { start: since, end: undefined };
  const log = (publicKey: Buffer, logId: Buffer) => ({
    baseUrl: sigstore.url,
    hashAlgorithm: HashAlgorithm.SHA2_256,
    publicKey: { rawBytes: publicKey, keyDetails: PublicKeyDetails.PKIX_ECDSA_P256_SHA_256, validFor },
    logId: { keyId: logId },
    checkpointKeyId: undefined,
    operator: 'refplat platform-sim',
  });
  return TrustedRoot.toJSON({
    mediaType: TRUSTED_ROOT_MEDIA_TYPE,
    certificateAuthorities: [
      {
        subject: { organization: 'sigstore.mock', commonName: 'sigstore' },
        uri: sigstore.url,
        certChain: { certificates: [{ rawBytes: sigstore.caRoot }] },
        validFor,
        operator: 'refplat platform-sim',
      },
    ],
    tlogs: [log(sigstore.tlogPublicKey, crypto.createHash('sha256').update(sigstore.tlogPublicKey).digest())],
    ctlogs: [log(sigstore.ctLog.publicKey, sigstore.ctLog.logId)],
    timestampAuthorities: [],
  }) as object;
}
