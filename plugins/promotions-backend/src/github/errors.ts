import { ServiceUnavailableError } from '@backstage/errors';
import { PlatformRepoRateLimitedError, PlatformRepoUnansweredError } from '@refplat/plugin-promotions-node';

/**
 * A stalled call. Named AbortError so octokit passes it through as it is:
 * it is not retried, because a write that timed out may still have happened
 * (the caller reconciles from GitHub instead), and a retried read would
 * multiply the stall.
 */
export class GithubTimeoutError extends Error {
  override name = 'AbortError';
}

type HttpishError = {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | number | undefined> };
};

export function statusOf(error: unknown): number | undefined {
  return (error as HttpishError)?.status;
}

export function isNotModified(error: unknown): boolean {
  return statusOf(error) === 304;
}

/**
 * GitHub failures that survive octokit's retries become a 503 with the
 * operation named, so the UI can say "GitHub cannot be reached" rather than
 * show a stack trace. A call GitHub did not answer in time says so
 * (PlatformRepoUnansweredError): a write may have been made.
 */
export function toUpstreamError(error: unknown, operation: string): Error {
  const status = statusOf(error);
  const detail = (error as HttpishError)?.message ?? String(error);
  const message = `GitHub failed while ${operation}${status ? ` (HTTP ${status})` : ''}: ${detail}`;
  if (error instanceof GithubTimeoutError) return new PlatformRepoUnansweredError(message);
  const rateLimited = rateLimitOf(error);
  return rateLimited ? new PlatformRepoRateLimitedError(message, rateLimited.retryAfterSeconds) : new ServiceUnavailableError(message);
}

/**
 * A refusal for GitHub's rate limits, as its documentation describes them: 403 or 429 with
 * `retry-after`, or with `x-ratelimit-remaining: 0`, or saying "rate limit".
 */
function rateLimitOf(error: unknown): { retryAfterSeconds?: number } | undefined {
  const status = statusOf(error);
  if (status !== 403 && status !== 429) return undefined;
  const headers = (error as HttpishError)?.response?.headers ?? {};
  const retryAfter = Number(headers['retry-after']);
  const exhausted = String(headers['x-ratelimit-remaining']) === '0';
  const says = /rate limit/i.test((error as HttpishError)?.message ?? '');
  if (!Number.isFinite(retryAfter) && !exhausted && !says) return undefined;
  return { retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : undefined };
}
