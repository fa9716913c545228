import { ProductRef, parseProductRef } from '@refplat/plugin-promotions-common';

/** Where the plugin's records live, as far as webhook payloads are concerned. */
export interface WatchedRepo {
  owner: string;
  repo: string;
  branch: string;
  /** `promotions.releasesPath` and `promotions.environmentsPath`, without slashes at the ends. */
  prefixes: string[];
}

/** GitHub lists at most 20 commits in a push payload (2048 on newer hooks); beyond, the list is cut. */
const PUSH_COMMIT_LIST_LIMIT = 20;

/** The Gate writes these statuses itself; hearing them back would only repeat its own check. */
const OWN_STATUS_PREFIX = 'promotions/';

type Payload = Record<string, unknown> | undefined | null;

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Payloads about another repository (an org-wide webhook) are none of the plugin's business. */
export function isWatchedRepo(payload: Payload, repo: WatchedRepo): boolean {
  const fullName = record(payload?.repository)?.full_name;
  return (
    typeof fullName === 'string' &&
    fullName.toLowerCase() === `${repo.owner}/${repo.repo}`.toLowerCase()
  );
}

/** What a `push` means for the plugin. */
export type PushImpact =
  /** Not the platform repo's branch: nothing to do. */
  | { kind: 'ignore' }
  /** The branch moved; these Products' records changed (maybe none). */
  | { kind: 'products'; products: ProductRef[] }
  /** The branch moved, but the payload cannot say which files (commit list cut, force push, deleted). */
  | { kind: 'unknown' };

/** `<prefix>/<team>/<product>/...` → the Product, for paths under a watched prefix. */
function productOfPath(path: string, prefixes: string[]): ProductRef | undefined {
  for (const prefix of prefixes) {
    if (!path.startsWith(`${prefix}/`)) continue;
    const [team, product, rest] = path.slice(prefix.length + 1).split('/', 3);
    if (rest === undefined) return undefined; // a file directly in a team directory
    return parseProductRef(`${team}/${product}`);
  }
  return undefined;
}

/**
 * Which Products a push to the platform repo changed: those with a Release or Environment
 * file added, modified or removed by any pushed commit.
 */
export function pushImpact(payload: Payload, repo: WatchedRepo): PushImpact {
  if (!isWatchedRepo(payload, repo) || payload?.ref !== `refs/heads/${repo.branch}`) {
    return { kind: 'ignore' };
  }
  const commits = Array.isArray(payload.commits) ? payload.commits.map(record) : [];
  if (payload.deleted === true || payload.forced === true || commits.length >= PUSH_COMMIT_LIST_LIMIT) {
    return { kind: 'unknown' };
  }
  const products = new Map<string, ProductRef>();
  for (const commit of commits) {
    const paths = ['added', 'modified', 'removed'].flatMap(key => strings(commit?.[key]));
    for (const path of paths) {
      const product = productOfPath(path, repo.prefixes);
      if (product) products.set(`${product.team}/${product.product}`, product);
    }
  }
  return { kind: 'products', products: [...products.values()] };
}

/**
 * The PR number of a `pull_request` event that can move a promotion: closed (merged or
 * not) or reopened on GitHub, or its head moved (synchronize).
 */
export function pullRequestToCheck(payload: Payload, repo: WatchedRepo): number | undefined {
  if (!isWatchedRepo(payload, repo)) return undefined;
  if (!['closed', 'reopened', 'synchronize'].includes(String(payload?.action))) return undefined;
  const number = payload?.number ?? record(payload?.pull_request)?.number;
  return typeof number === 'number' && Number.isInteger(number) && number > 0 ? number : undefined;
}

/** The commit of a `status` event someone else (CI, a required check) set, or undefined. */
export function statusShaToCheck(payload: Payload, repo: WatchedRepo): string | undefined {
  if (!isWatchedRepo(payload, repo)) return undefined;
  const context = payload?.context;
  if (typeof context === 'string' && context.startsWith(OWN_STATUS_PREFIX)) return undefined;
  const sha = payload?.sha;
  return typeof sha === 'string' && /^[0-9a-f]{40}$/.test(sha) ? sha : undefined;
}
