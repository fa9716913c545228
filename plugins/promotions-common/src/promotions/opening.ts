import { livePhase } from './lifecycle/promotionPhase';

/**
 * Opening a promotion's pull request takes several GitHub calls (branch,
 * commit, PR) after the promotion is recorded. The request doing it holds a
 * lease; a process that dies mid-way leaves a promotion without a PR whose
 * lease runs out, and then anyone may finish the job from GitHub.
 *
 * @public
 */
export type OpeningState =
  /** The PR is recorded: nothing is being opened. */
  | { state: 'opened' }
  /** A request is opening the PR and its lease still runs. */
  | { state: 'opening'; remainingMs: number }
  /** Bulk work's promotion, waiting in the write queue for its turn to be opened. */
  | { state: 'queued' }
  /** Nobody is opening it any more: reconcile it from GitHub. */
  | { state: 'abandoned' };

/**
 * What the rule needs of a promotion: its PR, if recorded, and the opener's lease.
 *
 * @public
 */
export interface OpeningFacts {
  /** Number 0 while no PR is recorded. */
  pullRequest: { number: number };
  /** ISO time the opener's lease ends; absent on records from before leases. */
  leaseExpiresAt?: string;
  /** ISO time it joined the write queue; cleared when an opener takes it. */
  queuedAt?: string;
}

/**
 * Where the opening of the promotion's PR stands at `now`.
 *
 * @public
 */
export function judgeOpening(facts: OpeningFacts, now: Date): OpeningState {
  const phase = livePhase(facts);
  if (phase === 'pull-request-open') return { state: 'opened' };
  if (phase === 'queued') return { state: 'queued' };
  const expires = facts.leaseExpiresAt ? Date.parse(facts.leaseExpiresAt) : NaN;
  // No readable lease: no opener can be relying on one.
  if (Number.isNaN(expires)) return { state: 'abandoned' };
  const remainingMs = expires - now.getTime();
  return remainingMs > 0 ? { state: 'opening', remainingMs } : { state: 'abandoned' };
}

/**
 * When a lease of `leaseMs` taken at `now` ends, as stored.
 *
 * @public
 */
export function leaseExpiry(now: Date, leaseMs: number): string {
  return new Date(now.getTime() + leaseMs).toISOString();
}
