import { ValidationError } from '@sigstore/bundle';
import { VerificationError } from '@sigstore/verify';

const MAX_DETAIL = 200;

const detail = (message: unknown) => String(message ?? '').slice(0, MAX_DETAIL);

/**
 * Says in one short sentence, for the ladder's hover, why Sigstore refused a
 * bundle. @sigstore/verify's errors carry a code and a terse message (the
 * certificate chain's real reason sits in `cause`); the common ones are
 * named in the ladder's words, the rest keep the library's message.
 */
export function verificationProblem(error: unknown): string {
  if (error instanceof ValidationError) {
    return `malformed bundle: invalid ${error.fields.slice(0, 5).join(', ') || 'content'}`;
  }
  if (!(error instanceof VerificationError)) {
    return `malformed bundle: ${detail(error instanceof Error ? error.message : error)}`;
  }
  const cause = detail(error.cause?.message);
  switch (error.code) {
    case 'CERTIFICATE_ERROR':
      if (/expected \d+ SCTs/.test(error.message) || /SCT/.test(cause)) {
        return 'the certificate has no valid timestamp from the trusted certificate-transparency log';
      }
      if (/not valid or expired/.test(cause)) return 'the certificate was not valid when the signature was logged';
      return `the certificate is not from the trusted root${cause ? ` (${cause})` : ''}`;
    case 'TIMESTAMP_ERROR':
      // Without a log entry (or a trusted timestamp) nothing says the short-lived certificate was valid at signing.
      return /expected \d+ timestamps, got 0/.test(error.message)
        ? 'no transparency-log entry (nor a trusted timestamp) says when it was signed'
        : `its timestamp does not verify: ${detail(error.message)}`;
    case 'TLOG_ERROR':
      return /got 0/.test(error.message) ? 'no transparency-log entry' : `its transparency-log entry does not verify: ${detail(error.message)}`;
    case 'TLOG_INCLUSION_PROOF_ERROR':
    case 'TLOG_INCLUSION_PROMISE_ERROR':
    case 'TLOG_MISSING_INCLUSION_ERROR':
      return `its transparency-log entry does not verify against the trusted log: ${detail(error.message)}`;
    case 'TLOG_BODY_ERROR':
      return `its transparency-log entry is for other content: ${detail(error.message)}`;
    case 'SIGNATURE_ERROR':
      return 'the signature does not match the signed statement';
    case 'PUBLIC_KEY_ERROR':
      return `it is signed with a key, not a keyless certificate from the trusted root: ${detail(error.message)}`;
    default:
      return `it does not verify: ${detail(error.message)}`;
  }
}
