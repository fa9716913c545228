import { AsyncLocalStorage } from 'node:async_hooks';
import { WriteBudgetLimits, writeBudgetWaitMs } from '@refplat/plugin-promotions-common';

const HOUR_MS = 60 * 60 * 1000;

/** Time as the budget sees it; tests give a virtual one. */
export interface BudgetTimer {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realTimer: BudgetTimer = {
  now: () => Date.now(),
  sleep: ms => new Promise(resolve => setTimeout(resolve, ms)),
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
  admit(): void;
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
 * (writeBudgetWaitMs), people's writes before bulk work's. Writes go one at a
 * time, as GitHub asks: the next is admitted once the last one's answer came,
 * and a write counts from that answer, the latest GitHub can have counted it,
 * so that its retries and octokit's pacing inside it never push two writes
 * closer together than the budget let them go. The count is this process's:
 * replicas each keep their own.
 */
export class WriteBudget {
  /** When the writes of the last hour were answered, oldest first (epoch ms). */
  private recent: number[] = [];
  private readonly waiters: Waiter[] = [];
  /** A write is admitted and not answered yet, or the next one's wait is being slept. */
  private busy = false;

  constructor(
    readonly limits: WriteBudgetLimits,
    private readonly timer: BudgetTimer = realTimer,
    private readonly onWait?: (state: WriteBudgetState) => void,
  ) {}

  /**
   * Resolves when one more write fits the budget, with the function to call
   * once GitHub answered it (or it failed): the write counts from then.
   */
  acquire(): Promise<() => void> {
    return new Promise(resolve => {
      const waiter: Waiter = { bulk: bulk.getStore() === true, admit: () => resolve(this.releaser()) };
      // People's writes go before every bulk write still waiting, in arrival order among themselves.
      const firstBulk = waiter.bulk ? -1 : this.waiters.findIndex(w => w.bulk);
      if (firstBulk === -1) this.waiters.push(waiter);
      else this.waiters.splice(firstBulk, 0, waiter);
      void this.admitNext();
    });
  }

  state(): WriteBudgetState {
    const now = this.timer.now();
    return { waiting: this.waiters.length, nextAt: now + writeBudgetWaitMs(this.recent, this.limits, now) };
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.recent.push(this.timer.now());
      this.busy = false;
      void this.admitNext();
    };
  }

  private async admitNext() {
    if (this.busy || this.waiters.length === 0) return;
    this.busy = true;
    for (;;) {
      const now = this.timer.now();
      this.recent = this.recent.filter(at => at > now - HOUR_MS);
      const wait = writeBudgetWaitMs(this.recent, this.limits, now);
      if (wait <= 0) break;
      this.onWait?.({ waiting: this.waiters.length, nextAt: now + wait });
      await this.timer.sleep(wait);
    }
    // Busy until this write's release.
    this.waiters.shift()!.admit();
  }
}
