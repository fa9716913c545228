import { ResponseError } from '@backstage/errors';

const RAW_BODY = /^Request failed with status \d+[^,]*, (\{[\s\S]*\})$/;

/**
 * The backend's own words for a failed call (e.g. why a promotion was
 * refused), rather than ResponseError's generic "Request failed with 409".
 */
export function errorMessage(error: unknown): string {
  if (ResponseError.is(error)) {
    const message = error.body?.error?.message ?? error.cause.message;
    // An error body without Backstage's `response` field is kept as raw
    // text by ResponseError; the message is still inside it.
    const raw = RAW_BODY.exec(message);
    if (raw) {
      try {
        const parsed = JSON.parse(raw[1]) as { error?: { message?: string } };
        if (parsed.error?.message) return parsed.error.message;
      } catch {
        return message;
      }
    }
    return message;
  }
  return error instanceof Error ? error.message : String(error);
}
