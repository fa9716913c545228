/** The most of a reason kept: an API server's message, never its whole answer. */
const REASON_MAX_CHARS = 200;

/**
 * Why a Kubernetes API call failed, in one short line for the log: client-node's ApiException
 * carries the HTTP code and the server's Status (whose `message` says why); its own message
 * repeats the whole body and headers, so only its first line is kept.
 */
export function kubernetesErrorReason(error: unknown): string {
  const { code, body } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; body?: unknown };
  const status = typeof body === 'string' ? parseJson(body) : body;
  const statusMessage = (status as { message?: unknown } | undefined)?.message;
  const message =
    typeof statusMessage === 'string'
      ? statusMessage
      : (error instanceof Error ? error.message : String(error)).split('\n')[0];
  const reason = typeof code === 'number' ? `HTTP ${code}: ${message}` : message;
  return reason.length > REASON_MAX_CHARS ? `${reason.slice(0, REASON_MAX_CHARS)}…` : reason;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
