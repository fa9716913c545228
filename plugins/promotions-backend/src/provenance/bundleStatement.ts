import { IN_TOTO_PAYLOAD_TYPE, StatementSummary, readStatement } from '@refplat/plugin-promotions-common';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a bundle claims, read before anything is verified. */
export type ClaimedStatement =
  | { statement: StatementSummary }
  | { predicateType?: string; problem: string };

/**
 * The in-toto statement inside a sigstore bundle's DSSE envelope. Read from
 * the bundle's JSON as it came (payload in base64), before Sigstore verifies
 * it, a bundle that does not verify still says what it claims to be (a
 * signature or SLSA provenance), so the ladder can say "its provenance does
 * not verify" rather than "no provenance". Read again from the verified
 * envelope (payload as bytes), it is what the signature covers.
 */
export function envelopeStatement(envelope: unknown): ClaimedStatement {
  if (!isObject(envelope)) {
    // A message-signature bundle signs bytes, not a statement about a digest; cosign's keyless sign writes DSSE.
    return { problem: 'malformed bundle: it has no DSSE envelope (an in-toto statement is expected)' };
  }
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE) {
    // Any JSON may stand there: an object whose toString is not a function makes String() throw.
    const shown = typeof envelope.payloadType === 'string' ? envelope.payloadType : `${JSON.stringify(envelope.payloadType)}`;
    return { problem: `malformed bundle: its payload type is ${shown.slice(0, 80)}, not ${IN_TOTO_PAYLOAD_TYPE}` };
  }
  const { payload } = envelope;
  if (typeof payload !== 'string' && !(payload instanceof Uint8Array)) {
    return { problem: 'malformed bundle: its DSSE envelope has no payload' };
  }
  let statement: unknown;
  try {
    const bytes = typeof payload === 'string' ? Buffer.from(payload, 'base64') : Buffer.from(payload);
    statement = JSON.parse(bytes.toString('utf8'));
  } catch {
    return { problem: 'malformed bundle: its DSSE payload is not JSON' };
  }
  const summary = readStatement(statement);
  if ('problem' in summary) {
    const predicateType = isObject(statement) && typeof statement.predicateType === 'string' ? statement.predicateType.slice(0, 2048) : undefined;
    return { ...(predicateType ? { predicateType } : {}), problem: `malformed bundle: ${summary.problem}` };
  }
  return { statement: summary };
}
