import { asBulkWork, BudgetTimer, WriteBudget, WriteLedger } from './WriteBudget';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/**
 * Virtual time: a sleep is recorded and, once what was admitted before it has
 * run, moves the clock on, unless it was woken (aborted) meanwhile.
 */
function virtualTimer(): BudgetTimer & { sleeps: number[]; advance(ms: number): void } {
  let now = Date.parse('2026-12-03T12:00:00Z');
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    advance: ms => {
      now += ms;
    },
    sleep: async (ms, signal) => {
      sleeps.push(ms);
      await new Promise(resolve => setImmediate(resolve));
      if (!signal.aborted) now += ms;
    },
  };
}

/** Takes a place in the budget, does `then` (notes the moment), and gives the place back. */
async function acquireThen(budget: WriteBudget, then: () => void): Promise<void> {
  const release = await budget.acquire();
  then();
  release();
}

describe('WriteBudget', () => {
  it('admits writes at once while they fit, then waits until the minute has room', async () => {
    const timer = virtualTimer();
    const budget = new WriteBudget({ perMinute: 2, perHour: 500 }, timer);
    const admittedAt: number[] = [];
    await Promise.all([1, 2, 3].map(() => acquireThen(budget, () => admittedAt.push(timer.now()))));
    expect(admittedAt[1] - admittedAt[0]).toBe(0);
    expect(admittedAt[2] - admittedAt[0]).toBe(MINUTE);
  });

  it('counts a write in flight as made now, and from its answer once answered', async () => {
    const timer = virtualTimer();
    const budget = new WriteBudget({ perMinute: 2, perHour: 500 }, timer);
    const start = timer.now();
    // Not serialised here: two writes fit, so both go at once.
    const answerFirst = await budget.acquire();
    const answerSecond = await budget.acquire();
    let thirdAt: number | undefined;
    const third = budget.acquire().then(release => {
      thirdAt = timer.now();
      return release;
    });
    // The answers come 30 s on (after octokit's pacing or retries): the minute counts from then.
    timer.advance(30 * SECOND);
    answerFirst();
    answerSecond();
    (await third)();
    expect(thirdAt! - start).toBe(30 * SECOND + MINUTE);
  });

  it('keeps the hour ceiling over many minutes', async () => {
    const timer = virtualTimer();
    const budget = new WriteBudget({ perMinute: 80, perHour: 100 }, timer);
    const start = timer.now();
    const admittedAt: number[] = [];
    await Promise.all(Array.from({ length: 250 }, () => acquireThen(budget, () => admittedAt.push(timer.now()))));
    for (const at of admittedAt) {
      expect(admittedAt.filter(other => other > at - 60 * MINUTE && other <= at).length).toBeLessThanOrEqual(100);
      expect(admittedAt.filter(other => other > at - MINUTE && other <= at).length).toBeLessThanOrEqual(80);
    }
    // 80 at once and 20 a minute later, the same an hour on, and the last 50 two hours in.
    expect(admittedAt[249] - start).toBe(2 * 60 * MINUTE);
  });

  it('lets a person\'s write go before bulk work already waiting', async () => {
    const timer = virtualTimer();
    const budget = new WriteBudget({ perMinute: 1, perHour: 500 }, timer);
    const order: string[] = [];
    const bulkWrites = asBulkWork(() =>
      Promise.all(['bulk 1', 'bulk 2', 'bulk 3'].map(name => acquireThen(budget, () => order.push(name)))),
    );
    const person = acquireThen(budget, () => order.push('person'));
    await Promise.all([bulkWrites, person]);
    expect(order).toEqual(['bulk 1', 'person', 'bulk 2', 'bulk 3']);
  });

  it('tells how many writes wait and when the next may go', async () => {
    const timer = virtualTimer();
    const waits: Array<{ waiting: number; inMs: number }> = [];
    const budget = new WriteBudget({ perMinute: 1, perHour: 500 }, timer, state =>
      waits.push({ waiting: state.waiting, inMs: state.nextAt - timer.now() }),
    );
    await Promise.all([1, 2, 3, 4].map(() => budget.acquire().then(release => release())));
    // The first goes at once; the second, asking while it is in flight, waits; then the three
    // queued wait a minute each (told again when an answer restarts the wait: it counts from then).
    expect(waits.every(wait => wait.inMs === MINUTE)).toBe(true);
    const counts = waits.map(wait => wait.waiting).filter((count, i, all) => count !== all[i - 1]);
    expect(counts).toEqual([1, 3, 2, 1]);
    expect(budget.state()).toEqual({ waiting: 0, nextAt: timer.now() + MINUTE });
  });

  describe('with replicas sharing a ledger', () => {
    /** A ledger as the database keeps it, holding another replica's writes; `recorded` are this one's. */
    function ledgerWith(others: number[]): WriteLedger & { recorded: number[] } {
      const recorded: number[] = [];
      const record = async (at: number) => void recorded.push(at);
      return {
        recorded,
        record,
        claim: async (now, waitMs) => {
          const wait = waitMs(others.filter(at => at > now - 60 * MINUTE));
          return wait > 0 ? { waitMs: wait, others } : { waitMs: 0, others, answered: record };
        },
      };
    }

    it("counts the other replicas' writes: when theirs fill the minute, this one's waits for room", async () => {
      const timer = virtualTimer();
      const start = timer.now();
      // The other replica wrote twice 10 s ago: the minute is full until 50 s from now.
      const ledger = ledgerWith([start - 10 * SECOND, start - 10 * SECOND]);
      const budget = new WriteBudget({ perMinute: 2, perHour: 500 }, timer, undefined, ledger);

      const release = await budget.acquire();

      expect(timer.now() - start).toBe(50 * SECOND);
      release();
      expect(ledger.recorded).toEqual([timer.now()]);
    });

    it("goes on with this process's own count when the database cannot say, and says so", async () => {
      const timer = virtualTimer();
      const failures: unknown[] = [];
      const ledger = {
        record: async () => Promise.reject(new Error('database is locked')),
        claim: async () => Promise.reject(new Error('database is locked')),
      };
      const budget = new WriteBudget({ perMinute: 2, perHour: 500 }, timer, undefined, ledger, error => failures.push(error));
      const start = timer.now();

      (await budget.acquire())();
      await new Promise(resolve => setImmediate(resolve));

      expect(timer.now()).toBe(start);
      expect(failures.map(String)).toEqual(['Error: database is locked', 'Error: database is locked']);
    });
  });
});
