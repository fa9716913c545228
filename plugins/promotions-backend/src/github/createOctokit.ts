import Bottleneck from 'bottleneck';
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
import type { WriteBudgetLimits } from '@refplat/plugin-promotions-common';
import { WriteBudget, WriteLedger } from './WriteBudget';
import { GithubTimeoutError, unreachableError } from './errors';
import { observeRateLimit } from './observeRateLimit';
import { observeWriteBudget } from '../telemetry/promotionsMetrics';

const ResilientOctokit = Octokit.plugin(retry, throttling);

/** The retry and throttling plugins change behaviour, not the API surface. */
export type GithubClient = Octokit;

/** How often one request is retried after a rate limit before giving up. */
const MAX_RATE_LIMIT_RETRIES = 2;
/** Waiting longer than this for a rate limit reset fails the request instead. */
const MAX_RATE_LIMIT_WAIT_SECONDS = 60;
/** A GitHub call that has not answered by then fails, as ArgoCD calls do. */
export const GITHUB_REQUEST_TIMEOUT_MS = 10_000;

/**
 * fetch with a deadline per call (octokit has no timeout of its own), and a
 * host that cannot be reached said plainly, not retried as a 500.
 */
function fetchWithTimeout(timeoutMs: number): typeof fetch {
  return async (input, init) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    try {
      return await fetch(input, { ...init, signal });
    } catch (error) {
      if (deadline.aborted) {
        throw new GithubTimeoutError(`GitHub did not answer within ${timeoutMs / 1000} s`);
      }
      throw unreachableError(error, String(input instanceof Request ? input.url : input)) ?? error;
    }
  };
}

export interface CreateOctokitOptions {
  config: Config;
  host: string;
  owner: string;
  repo: string;
  logger: LoggerService;
  /** Per-call timeout; GITHUB_REQUEST_TIMEOUT_MS unless a test shrinks it. */
  requestTimeoutMs?: number;
  /** The least time between two writes (promotions.platformRepo.writePacing.writes); octokit's 1 s unless given. */
  writeSpacingMs?: number;
  /** The same for writes that notify people: PRs, comments, merges (writePacing.pullRequests); octokit's 3 s unless given. */
  pullRequestSpacingMs?: number;
  /** GitHub's secondary limit on writes (promotions.platformRepo.writeBudget); every write waits for it. None unless given. */
  writeBudget?: WriteBudgetLimits;
  /** The other replicas' writes (the database's), which the budget counts too; this process's alone when not given. */
  writeLedger?: WriteLedger;
  /**
   * Retries of a 5xx; the retry plugin's 3 (after 1, 4 and 9 s) unless
   * given. The Gate uses 0: its next run is the retry, and a step must stay short.
   */
  retries?: number;
  /** The wait before the first retry of a 5xx (promotions.platformRepo.retryBackoff); octokit's 1 s unless given. */
  retryBackoffMs?: number;
}

/** octokit's own spacing of writes and of writes that notify (@octokit/plugin-throttling). */
const OCTOKIT_WRITE_SPACING_MS = 1_000;
const OCTOKIT_NOTIFICATION_SPACING_MS = 3_000;

/**
 * Bottleneck groups by spacing, shared by every client of this process, as
 * octokit's own are: the Gate's writes and a request's are one identity's to GitHub.
 */
const pacingGroups = new Map<string, Bottleneck.Group>();
function pacingGroup(kind: 'write' | 'notifications', minTime: number): Bottleneck.Group {
  const key = `${kind} ${minTime}`;
  let group = pacingGroups.get(key);
  if (!group) {
    group = new Bottleneck.Group({ id: `promotions-${kind}-${minTime}`, maxConcurrent: 1, minTime });
    pacingGroups.set(key, group);
  }
  return group;
}

/** The throttling plugin's groups for a spacing other than its own; none (its defaults) otherwise. */
function writePacing(options: Pick<CreateOctokitOptions, 'writeSpacingMs' | 'pullRequestSpacingMs'>) {
  const writes = options.writeSpacingMs ?? OCTOKIT_WRITE_SPACING_MS;
  const notifications = options.pullRequestSpacingMs ?? OCTOKIT_NOTIFICATION_SPACING_MS;
  if (writes === OCTOKIT_WRITE_SPACING_MS && notifications === OCTOKIT_NOTIFICATION_SPACING_MS) return {};
  return { write: pacingGroup('write', writes), notifications: pacingGroup('notifications', notifications) };
}

/** A wait for the budget this long or longer is logged. */
const LOGGED_BUDGET_WAIT_MS = 10_000;

/**
 * One budget per GitHub host and limits, shared by every client of this process: one identity's writes to GitHub.
 * With a ledger, per ledger too: a backend's database (tests start several backends in one process).
 */
const writeBudgets = new Map<string, WriteBudget>();
const ledgerBudgets = new WeakMap<WriteLedger, Map<string, WriteBudget>>();
export function sharedWriteBudget(
  host: string,
  limits: WriteBudgetLimits,
  logger: LoggerService,
  ledger?: WriteLedger,
): WriteBudget {
  const key = `${host} ${limits.perMinute}/${limits.perHour}`;
  let budgets = writeBudgets;
  if (ledger) {
    budgets = ledgerBudgets.get(ledger) ?? new Map();
    ledgerBudgets.set(ledger, budgets);
  }
  let budget = budgets.get(key);
  if (!budget) {
    budget = new WriteBudget(
      limits,
      undefined,
      ({ waiting, nextAt }) => {
        const inMs = nextAt - Date.now();
        if (inMs < LOGGED_BUDGET_WAIT_MS) return;
        logger.info(
          `GitHub write budget (${limits.perMinute} a minute, ${limits.perHour} an hour) in use: ${waiting} write(s) waiting; the next in ${Math.ceil(inMs / 1000)} s`,
        );
      },
      ledger,
      error => logger.warn(`GitHub write budget: the other replicas' writes could not be shared through the database: ${error}`),
    );
    budgets.set(key, budget);
    observeWriteBudget(host, () => budget!.reading());
  }
  return budget;
}

/**
 * An octokit for the platform repo with credentials from
 * `integrations.github` (token or GitHub App, GitHub Enterprise
 * `apiBaseUrl`), retries for 5xx, rate-limit handling that waits only
 * when the wait is short, and a timeout per call.
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
      fallbackSecondaryRateRetryAfter: 60,
      ...writePacing(options),
    },
    retry: {
      doNotRetry: [304, 400, 401, 403, 404, 405, 409, 422, 451],
      ...(options.retries === undefined ? {} : { retries: options.retries }),
      ...(options.retryBackoffMs === undefined ? {} : { retryAfterBaseValue: options.retryBackoffMs }),
    },
    request: { fetch: fetchWithTimeout(options.requestTimeoutMs ?? GITHUB_REQUEST_TIMEOUT_MS) },
  });

  // Wrapped around the throttling and retry plugins: a write waits for the budget first,
  // and counts once its answer came, after octokit's pacing and retries within it.
  const budget = options.writeBudget && sharedWriteBudget(host, options.writeBudget, logger, options.writeLedger);
  if (budget) {
    octokit.hook.wrap('request', async (send, requestOptions) => {
      if (requestOptions.method === 'GET' || requestOptions.method === 'HEAD') return send(requestOptions);
      const answered = await budget.acquire();
      try {
        return await send(requestOptions);
      } finally {
        answered();
      }
    });
  }

  observeRateLimit(octokit, host);

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
