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

/**
 * GitHub's host could not be reached at all: its name did not resolve, or
 * nothing accepted the connection. Named AbortError, as a timeout is, so
 * octokit passes it through and its retry plugin does not wait 1, 4 and 9 s
 * on a host that is not there; nothing was sent, so nothing needs reconciling.
 */
export class GithubUnreachableError extends Error {
  override name = 'AbortError';
}

/** What each connection failure means to a person; the code stays in the message for a search. */
const UNREACHABLE: Record<string, string> = {
  ENOTFOUND: 'its host name does not resolve (DNS)',
  EAI_AGAIN: 'its host name could not be resolved now (DNS)',
  ECONNREFUSED: 'nothing accepts connections at its address',
  EHOSTUNREACH: 'its host is unreachable from here',
  ENETUNREACH: 'its network is unreachable from here',
};

/** The unreachable-host error for a failed fetch to `url`, or undefined for any other failure. */
export function unreachableError(error: unknown, url: string): GithubUnreachableError | undefined {
  const cause = (error as { cause?: { code?: string; errors?: Array<{ code?: string }> } })?.cause;
  // A host with several addresses fails with an AggregateError of one refusal each.
  const code = cause?.code ?? cause?.errors?.find(each => each.code)?.code;
  const meaning = code ? UNREACHABLE[code] : undefined;
  if (!meaning) return undefined;
  return new GithubUnreachableError(`GitHub at ${new URL(url).host} cannot be reached: ${meaning} (${code})`);
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
  if (error instanceof GithubUnreachableError) return new ServiceUnavailableError(`GitHub failed while ${operation}: ${detail}`);
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

/** A few words on an unexpected answer body, for an error message: its type, or its first keys. */
export function describeAnswer(data: unknown): string {
  if (data === null || typeof data !== 'object') return `a ${data === null ? 'null' : typeof data} body`;
  const keys = Object.keys(data).slice(0, 5);
  return keys.length ? `a body with ${keys.join(', ')}` : 'an empty body';
}
