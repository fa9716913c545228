import { judgeOpening } from './opening';

/**
 * What the Gate's reconciler decides about the plugin's pull requests and
 * branches on GitHub, given the live promotions in the database. Live
 * promotions are read after GitHub is listed, and a promotion is recorded
 * before its branch and PR exist, so every PR or branch still in use has its
 * live promotion in that list.
 */

/**
 * A live promotion as the reconciler sees it.
 *
 * @public
 */
export interface LivePromotionFacts {
  id: string;
  /** Number 0 while no PR is recorded. */
  pullRequest: { number: number };
  leaseExpiresAt?: string;
  branch?: string;
}

/**
 * An open PR carrying the plugin's marker.
 *
 * @public
 */
export interface MarkedPullRequest {
  number: number;
  /** The promotion id its marker names. */
  promotionId?: string;
  headRef: string;
  /**
   * Whether the database has that promotion at all, live or ended. False after the database was
   * lost (an in-memory one restarted): the PR is then restored from GitHub, never closed.
   */
  recorded?: boolean;
}

/**
 * What the reconciler does with one open plugin PR.
 *
 * @public
 */
export type PullRequestDisposition =
  /** Its live promotion has it recorded. */
  | { action: 'keep' }
  /** Its promotion is still being opened by a request holding the lease. */
  | { action: 'wait' }
  /** Its promotion lost the request that opened it: record the PR on it. */
  | { action: 'adopt'; promotionId: string }
  /** The database has never heard of its promotion (it was lost): rebuild the promotion from the PR. */
  | { action: 'restore'; promotionId: string }
  /** Nothing live owns it: it must not stay open. */
  | { action: 'close'; reason: string };

/**
 * Whether a live promotion owns the PR, is still opening it, lost its opener, or nothing owns it.
 *
 * @public
 */
export function disposePullRequest(
  pr: MarkedPullRequest,
  live: LivePromotionFacts[],
  now: Date,
): PullRequestDisposition {
  const owner = pr.promotionId ? live.find(p => p.id === pr.promotionId) : undefined;
  if (!owner && pr.promotionId && pr.recorded === false) {
    return { action: 'restore', promotionId: pr.promotionId };
  }
  if (!owner) {
    return {
      action: 'close',
      reason: 'no live promotion owns this pull request (its promotion ended, failed or was superseded)',
    };
  }
  if (owner.pullRequest.number === pr.number) return { action: 'keep' };
  if (owner.pullRequest.number > 0) {
    return { action: 'close', reason: `its promotion continues in #${owner.pullRequest.number}` };
  }
  return judgeOpening(owner, now).state === 'opening'
    ? { action: 'wait' }
    : { action: 'adopt', promotionId: owner.id };
}

/**
 * A `promotions/*` branch is in use while a live promotion or an open PR has it.
 *
 * @public
 */
export function isBranchInUse(
  branch: string,
  live: Pick<LivePromotionFacts, 'branch'>[],
  openPullRequests: Pick<MarkedPullRequest, 'headRef'>[],
): boolean {
  return live.some(p => p.branch === branch) || openPullRequests.some(pr => pr.headRef === branch);
}

/**
 * An unused branch is deleted only once it has been idle for the grace
 * period: its promotion may have ended a moment ago and be cleaning up.
 * Unknown idleness never counts as elapsed.
 *
 * @public
 */
export function graceElapsed(idleSince: string | undefined, now: Date, graceMs: number): boolean {
  const since = idleSince ? Date.parse(idleSince) : NaN;
  return !Number.isNaN(since) && now.getTime() - since >= graceMs;
}
