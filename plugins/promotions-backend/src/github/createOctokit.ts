import { LoggerService } from '@backstage/backend-plugin-api';
import {
  DefaultGithubCredentialsProvider,
  GithubIntegrationConfig,
  ScmIntegrations,
} from '@backstage/integration';
import { Config } from '@backstage/config';
import { Octokit } from '@octokit/rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';

const ResilientOctokit = Octokit.plugin(retry, throttling);

/** The retry and throttling plugins change behaviour, not the API surface. */
export type GithubClient = Octokit;

/** How often one request is retried after a rate limit before giving up. */
const MAX_RATE_LIMIT_RETRIES = 2;
/** Waiting longer than this for a rate limit reset fails the request instead. */
const MAX_RATE_LIMIT_WAIT_SECONDS = 60;

export interface CreateOctokitOptions {
  config: Config;
  host: string;
  owner: string;
  repo: string;
  logger: LoggerService;
  /** Milliseconds per `retry-after` second; tests shrink it. */
  retryAfterBaseValue?: number;
}

/**
 * An octokit for the platform repo with credentials from
 * `integrations.github` (token or GitHub App, GitHub Enterprise
 * `apiBaseUrl`), retries for 5xx, and rate-limit handling that waits only
 * when the wait is short.
 */
export function createOctokit(options: CreateOctokitOptions): GithubClient {
  const { config, host, owner, repo, logger } = options;
  const integrations = ScmIntegrations.fromConfig(config);
  const integration = integrations.github.byHost(host);
  if (!integration) {
    throw new Error(
      `No integrations.github entry for host '${host}' (promotions.platformRepo.host)`,
    );
  }
  const integrationConfig: GithubIntegrationConfig = integration.config;
  const credentialsProvider =
    DefaultGithubCredentialsProvider.fromIntegrations(integrations);
  const repoUrl = `https://${host}/${owner}/${repo}`;

  const shouldRetry = (kind: string) =>
    (retryAfter: number, requestOptions: { method: string; url: string }, _o: unknown, retryCount: number) => {
      const retrying =
        retryCount < MAX_RATE_LIMIT_RETRIES &&
        retryAfter <= MAX_RATE_LIMIT_WAIT_SECONDS;
      logger.warn(
        `GitHub ${kind} rate limit on ${requestOptions.method} ${requestOptions.url}; ${
          retrying ? `retrying after ${retryAfter}s` : 'giving up'
        }`,
      );
      return retrying;
    };

  const octokit = new ResilientOctokit({
    baseUrl: integrationConfig.apiBaseUrl ?? 'https://api.github.com',
    userAgent: 'backstage-plugin-promotions',
    throttle: {
      onRateLimit: shouldRetry('primary'),
      onSecondaryRateLimit: shouldRetry('secondary'),
      retryAfterBaseValue: options.retryAfterBaseValue,
      fallbackSecondaryRateRetryAfter: 60,
    },
    retry: { doNotRetry: [304, 400, 401, 403, 404, 405, 409, 422, 451] },
  });

  // Credentials are looked up per request so GitHub App installation tokens
  // are renewed before they expire (the provider caches them meanwhile).
  octokit.hook.before('request', async requestOptions => {
    const { headers } = await credentialsProvider.getCredentials({
      url: repoUrl,
    });
    if (headers?.Authorization) {
      requestOptions.headers.authorization = headers.Authorization;
    }
  });

  return octokit;
}
