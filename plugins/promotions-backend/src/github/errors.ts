import { ServiceUnavailableError } from '@backstage/errors';

type HttpishError = { status?: number; message?: string };

export function statusOf(error: unknown): number | undefined {
  return (error as HttpishError)?.status;
}

export function isNotModified(error: unknown): boolean {
  return statusOf(error) === 304;
}

/**
 * GitHub failures that survive octokit's retries become a 503 with the
 * operation named, so the UI can say "GitHub cannot be reached" rather than
 * show a stack trace.
 */
export function toUpstreamError(error: unknown, operation: string): Error {
  const status = statusOf(error);
  const detail = (error as HttpishError)?.message ?? String(error);
  return new ServiceUnavailableError(
    `GitHub failed while ${operation}${status ? ` (HTTP ${status})` : ''}: ${detail}`,
  );
}
