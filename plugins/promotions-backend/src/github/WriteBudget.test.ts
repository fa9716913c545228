import { asBulkWork, BudgetTimer, WriteBudget } from './WriteBudget';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** Virtual time: a sleep is recorded and moves the clock on once what was admitted before it has run. */
function virtualTimer(): BudgetTimer & { sleeps: number[] } {
  let now = Date.parse('2026-12-03T12:00:00Z');
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async ms => {
      sleeps.push(ms);
      await new Promise(resolve => setImmediate(resolve));
      now += ms;
    },
  };
}

describe('WriteBudget', () => {
  it('admits writes at once while they fit, then waits until the minute has room', async () => {
    const timer = virtualTimer();
    const budget = new WriteBudget({ perMinute: 2, perHour: 500 }, timer);
    const admittedAt: number[] = [];
    await Promise.all([1, 2, 3].map(() => budget.acquire().then(release => (admittedAt.push(timer.now()), release()))));
    expect(admittedAt[1] - admittedAt[0]).toBe(0);
    expect(admittedAt[2] - admittedAt[0]).toBe(MINUTE);
    expect(timer.sleeps).toEqual([MINUTE]);
  });

  it('admits one write at a time, counting each from its answer', async () => {
    const timer = virtualTimer();
    const budget = new WriteBudget({ perMinute: 2, perHour: 500 }, timer);
    const releaseFirst = await budget.acquire();
    let secondAdmitted = false;
    const second = budget.acquire().then(release => {
      secondAdmitted = true;
      return release;
    });
    await new Promise(resolve => setImmediate(resolve));
    expect(secondAdmitted).toBe(false);
    // The first write's answer (after octokit's pacing or retries) comes 30 s on.
    await timer.sleep(30 * SECOND);
    releaseFirst();
    (await second)();
    expect(secondAdmitted).toBe(true);
    // Two writes in the minute: the third waits until the first's answer is a minute old.
    const third = budget.acquire();
    await third;
    expect(timer.sleeps).toEqual([30 * SECOND, MINUTE]);
  });

  it('keeps the hour ceiling over many minutes', async () => {
    const timer = virtualTimer();
    const budget = new WriteBudget({ perMinute: 80, perHour: 100 }, timer);
    const start = timer.now();
    const admittedAt: number[] = [];
    await Promise.all(Array.from({ length: 250 }, () => budget.acquire().then(release => (admittedAt.push(timer.now()), release()))));
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
      Promise.all(['bulk 1', 'bulk 2', 'bulk 3'].map(name => budget.acquire().then(release => (order.push(name), release())))),
    );
    const person = budget.acquire().then(release => (order.push('person'), release()));
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
    // The first goes at once; once it is answered, the other three wait a minute each.
    expect(waits).toEqual([
      { waiting: 3, inMs: MINUTE },
      { waiting: 2, inMs: MINUTE },
      { waiting: 1, inMs: MINUTE },
    ]);
    expect(budget.state()).toEqual({ waiting: 0, nextAt: timer.now() + MINUTE });
  });
});
