import { ResponseError } from '@backstage/errors';

/**
 * The backend's own words for a failed call (e.g. why a promotion was
 * refused), rather than ResponseError's generic "Request failed with 409".
 * The backend answers every error in Backstage's error body, which
 * `ResponseError.fromResponse` parses into `body.error`; for any other body
 * (a proxy's page) it makes up one that names the status and the text.
 */
export function errorMessage(error: unknown): string {
  if (ResponseError.is(error)) return error.body.error.message;
  return error instanceof Error ? error.message : String(error);
}
