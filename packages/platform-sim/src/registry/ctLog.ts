import crypto from 'crypto';

/** What @sigstore/mock's CA asks of a certificate transparency log (its `CTLog`). */
export interface CertificateTransparencyLog {
  /** DER SPKI. */
  publicKey: Buffer;
  /** SHA-256 of the public key. */
  logID: Buffer;
  /** Logs a precertificate (DER) for the issuer whose key hashes to `issuerID`; answers the SCT, prefixed by its length. */
  log(precertificate: ArrayBuffer, issuerID: ArrayBuffer): Promise<ArrayBuffer>;
}

/** The offsets of the DER element at `start`: where its contents begin and where it ends. */
function derElement(der: Buffer, start: number): { contentStart: number; end: number } {
  const first = der[start + 1];
  if (first < 0x80) return { contentStart: start + 2, end: start + 2 + first };
  const lengthBytes = first & 0x7f;
  const length = der.subarray(start + 2, start + 2 + lengthBytes).reduce((total, byte) => total * 256 + byte, 0);
  return { contentStart: start + 2 + lengthBytes, end: start + 2 + lengthBytes + length };
}

/** A certificate's TBSCertificate: the first element of its outer SEQUENCE. */
function tbsOf(certificate: Buffer): Buffer {
  const tbsStart = derElement(certificate, 0).contentStart;
  return certificate.subarray(tbsStart, derElement(certificate, tbsStart).end);
}

const uint = (value: number | bigint, bytes: number) => {
  const buffer = Buffer.alloc(8);
  buffer.writeBigUInt64BE(BigInt(value));
  return buffer.subarray(8 - bytes);
};

/**
 * A CT log that signs RFC 6962 v1 SCTs for precertificates with ECDSA P-256.
 * @sigstore/mock has one, but it encodes its SCT through pkijs, and with the
 * pkijs 3.4 that npm installs the signature is lost (a 49-byte SCT no
 * verifier can parse), so this one encodes the TLS structures itself.
 */
export function createCtLog(keys: crypto.KeyPairKeyObjectResult = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' })): CertificateTransparencyLog {
  const publicKey = keys.publicKey.export({ format: 'der', type: 'spki' });
  const logID = crypto.createHash('sha256').update(publicKey).digest();
  return {
    publicKey,
    logID,
    async log(precertificate, issuerID) {
      const timestamp = uint(Date.now(), 8);
      const tbs = tbsOf(Buffer.from(precertificate));
      const noExtensions = uint(0, 2);
      // RFC 6962 3.2: version v1, certificate_timestamp, the timestamp, precert_entry, issuer key hash, TBS, extensions.
      const signed = Buffer.concat([uint(0, 1), uint(0, 1), timestamp, uint(1, 2), Buffer.from(issuerID), uint(tbs.length, 3), tbs, noExtensions]);
      const signature = crypto.sign('sha256', signed, keys.privateKey);
      // SignedCertificateTimestamp: version, log id, timestamp, extensions, sha256(4), ecdsa(3), the signature.
      const sct = Buffer.concat([uint(0, 1), logID, timestamp, noExtensions, uint(4, 1), uint(3, 1), uint(signature.length, 2), signature]);
      const serialized = Buffer.concat([uint(sct.length, 2), sct]);
      return serialized.buffer.slice(serialized.byteOffset, serialized.byteOffset + serialized.length);
    },
  };
}
