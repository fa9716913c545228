import { isError } from '@backstage/errors';

/**
 * The backend's own words for a failed call (e.g. why a promotion was
 * refused), rather than ResponseError's generic "Request failed with 409".
 * The backend answers every error in Backstage's error body, which
 * `ResponseError.fromResponse` parses into `body.error`; for any other body
 * (a proxy's page) it makes up one that names the status and the text.
 * Recognised by name, not `ResponseError.is`: that arrived in
 * `@backstage/errors` 1.4.0, and the range this plugin declares starts at 1.3.1.
 */
export function errorMessage(error: unknown): string {
  if (isError(error) && error.name === 'ResponseError') {
    const message = (error as { body?: { error?: { message?: unknown } } }).body?.error?.message;
    if (typeof message === 'string') return message;
  }
  return error instanceof Error ? error.message : String(error);
}
