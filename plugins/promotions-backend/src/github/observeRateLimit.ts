import type { Octokit } from '@octokit/rest';
import { recordGithubRateLimit } from '../telemetry/promotionsMetrics';

type Headers = Record<string, string | number | undefined> | undefined;

/** GitHub says on every answer, errors included, how much of its rate limit is left. */
function noteRateLimit(host: string, headers: Headers) {
  const remaining = Number(headers?.['x-ratelimit-remaining']);
  if (headers?.['x-ratelimit-remaining'] === undefined || Number.isNaN(remaining)) return;
  recordGithubRateLimit(host, String(headers['x-ratelimit-resource'] ?? 'core'), remaining);
}

/**
 * Keeps the rate limit's remaining requests from each answer `octokit` gets
 * from `host`, for the metrics: the last value seen, which a collection reads
 * without asking GitHub.
 */
export function observeRateLimit(octokit: Octokit, host: string): void {
  octokit.hook.after('request', response => noteRateLimit(host, response.headers));
  octokit.hook.error('request', error => {
    noteRateLimit(host, (error as { response?: { headers?: Headers } }).response?.headers);
    throw error;
  });
}
