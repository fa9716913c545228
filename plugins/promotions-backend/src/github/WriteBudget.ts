import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { WriteBudgetLimits, writeBudgetWaitMs } from '@refplat/plugin-promotions-common';
import type { WriteBudgetReading } from '../telemetry/promotionsMetrics';

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;

/** Time as the budget sees it; tests give a virtual one. */
export interface BudgetTimer {
  now(): number;
  /** Resolves after `ms`, or at once when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

const realTimer: BudgetTimer = {
  now: () => Date.now(),
  sleep: (ms, signal) => sleep(ms, undefined, { signal, ref: false }).catch(() => undefined),
};

const bulk = new AsyncLocalStorage<true>();

/**
 * Runs `work` as bulk work: its GitHub writes wait behind everyone else's
 * for the write budget (the auto-promoter's runs; a person's request or an
 * approval's merge goes first).
 */
export function asBulkWork<T>(work: () => Promise<T>): Promise<T> {
  return bulk.run(true, work);
}

interface Waiter {
  bulk: boolean;
  admit(claim?: LedgerClaim): void;
}

/** The ledger's answer to a claim: a wait, or the write claimed (then `answered` once GitHub answered it). */
export interface LedgerClaim {
  waitMs: number;
  /** The other processes' writes of the last hour, oldest first (epoch ms), in flight ones counted at their claim. */
  others: number[];
  answered?: (at: number) => Promise<void>;
}

/**
 * The writes other backend processes made with the same identity (the
 * replicas'), shared through the database: GitHub counts them all against
 * one limit.
 */
export interface WriteLedger {
  /**
   * One claim at a time over every process: reads the others' writes,
   * asks `waitMs` how long the next write must wait with them counted, and
   * when it need not wait, records this process's write as made `now`.
   */
  claim(now: number, waitMs: (others: number[]) => number): Promise<LedgerClaim>;
  /** This process's write, made when the ledger could not be claimed from, was answered at `at` (epoch ms). */
  record(at: number): Promise<void>;
}

/** What the budget is doing, for a log line or a page. */
export interface WriteBudgetState {
  /** Writes waiting for the budget. */
  waiting: number;
  /** When the next write may go (epoch ms); now when it may go at once. */
  nextAt: number;
}

/**
 * GitHub's secondary limit on writes, kept by the writer: every write waits
 * here until one more fits the minute's and the hour's budget
 * (writeBudgetWaitMs), people's writes before bulk work's. A write counts as
 * made now while it is in flight, and from its answer once it has one, the
 * latest GitHub can have counted it: octokit's pacing and retries inside a
 * write never bring two writes closer together than the budget let them go.
 * Writes are not serialised here (octokit's throttling sends them one at a
 * time), so that the order octokit gives them stays. With a `ledger`, each
 * write is claimed there before it goes, one claim at a time over all
 * replicas, so the other replicas' writes count too, those in flight
 * included; when the database cannot say, this process's count alone.
 */
export class WriteBudget {
  /** When the writes of the last hour were answered, oldest first (epoch ms). */
  private recent: number[] = [];
  private inFlight = 0;
  private readonly waiters: Waiter[] = [];
  private admitting = false;
  /** Ends the current wait early: a write in flight was answered. */
  private wake?: AbortController;
  /** The other replicas' writes of the last hour, as the ledger last answered. */
  private others: number[] = [];

  constructor(
    readonly limits: WriteBudgetLimits,
    private readonly timer: BudgetTimer = realTimer,
    private readonly onWait?: (state: WriteBudgetState) => void,
    private readonly ledger?: WriteLedger,
    private readonly onLedgerError?: (error: unknown) => void,
  ) {}

  /**
   * Resolves when one more write fits the budget, with the function to call
   * once GitHub answered it (or it failed): the write counts from then.
   */
  acquire(): Promise<() => void> {
    return new Promise(resolve => {
      const waiter: Waiter = { bulk: bulk.getStore() === true, admit: claim => resolve(this.releaser(claim)) };
      // People's writes go before every bulk write still waiting, in arrival order among themselves.
      const firstBulk = waiter.bulk ? -1 : this.waiters.findIndex(w => w.bulk);
      if (firstBulk === -1) this.waiters.push(waiter);
      else this.waiters.splice(firstBulk, 0, waiter);
      void this.admitWaiting();
    });
  }

  state(): WriteBudgetState {
    const now = this.timer.now();
    return { waiting: this.waiters.length, nextAt: now + this.waitMs(now) };
  }

  /**
   * What the budget allows now, for the metrics: from memory alone (the
   * other replicas' writes as the ledger last answered), so a collection
   * costs no query.
   */
  reading(): WriteBudgetReading {
    const now = this.timer.now();
    const counted = this.counted(now);
    const left = (windowMs: number, limit: number) => Math.max(0, limit - counted.filter(at => at > now - windowMs).length);
    return {
      remainingThisMinute: left(MINUTE_MS, this.limits.perMinute),
      remainingThisHour: left(HOUR_MS, this.limits.perHour),
      nextOpeningInMs: writeBudgetWaitMs(counted, this.limits, now),
    };
  }

  /** How long the next write waits. */
  private waitMs(now: number): number {
    return writeBudgetWaitMs(this.counted(now), this.limits, now);
  }

  /** The writes of the last hour GitHub counts, oldest first: the replicas' too, and those in flight as made now. */
  private counted(now: number): number[] {
    this.recent = this.recent.filter(at => at > now - HOUR_MS);
    const made = this.others.length ? [...this.recent, ...this.others].sort((a, b) => a - b) : this.recent;
    return this.inFlight ? [...made, ...Array<number>(this.inFlight).fill(now)] : made;
  }

  /**
   * Claims the write in the ledger, where the other replicas' writes count
   * too; undefined when the database cannot say (this process's count alone).
   */
  private async claimFromLedger(now: number): Promise<LedgerClaim | undefined> {
    try {
      return await this.ledger!.claim(now, others => {
        this.others = others;
        return this.waitMs(now);
      });
    } catch (error) {
      this.onLedgerError?.(error);
      return undefined;
    }
  }

  private releaser(claim?: LedgerClaim): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight -= 1;
      const at = this.timer.now();
      this.recent.push(at);
      if (this.ledger) {
        const shared = claim?.answered ? claim.answered(at) : this.ledger.record(at);
        shared.catch(error => this.onLedgerError?.(error));
      }
      this.wake?.abort();
      void this.admitWaiting();
    };
  }

  private async admitWaiting() {
    if (this.admitting) return;
    this.admitting = true;
    try {
      while (this.waiters.length) {
        const now = this.timer.now();
        let wait = this.waitMs(now);
        // Only with a ledger: without one, admitting stays synchronous (no turn of the event loop between waiters).
        const claim = wait === 0 && this.ledger ? await this.claimFromLedger(now) : undefined;
        if (claim) wait = claim.waitMs;
        if (wait > 0) {
          this.onWait?.({ waiting: this.waiters.length, nextAt: now + wait });
          // Waits until the window has room, or until a write in flight is answered and counts from then.
          this.wake = new AbortController();
          await this.timer.sleep(wait, this.wake.signal);
          this.wake = undefined;
          continue;
        }
        this.inFlight += 1;
        this.waiters.shift()!.admit(claim);
      }
    } finally {
      this.admitting = false;
    }
  }
}
