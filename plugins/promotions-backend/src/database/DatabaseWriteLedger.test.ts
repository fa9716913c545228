import { TestDatabases } from '@backstage/backend-test-utils';
import { BudgetTimer, WriteBudget } from '../github/WriteBudget';
import { migratedClient } from './DatabasePromotionStore';
import { DatabaseWriteLedger } from './DatabaseWriteLedger';
import { until } from '../__testUtils__/until';

jest.setTimeout(60_000);

const databases = TestDatabases.create({ ids: ['POSTGRES_15', 'SQLITE_3'] });
const HOUR = 60 * 60 * 1000;
const NOW = Date.parse('2026-12-04T12:00:00Z');

/** Claims a write at `at` whatever the others wrote, answered at `answeredAt`. */
async function write(ledger: DatabaseWriteLedger, at: number, answeredAt = at) {
  const claim = await ledger.claim(at, () => 0);
  await claim.answered!(answeredAt);
}

/** Time standing still at NOW: a budget that must wait sleeps until it is woken. */
function stoppedClock(): BudgetTimer & { sleeping: Set<AbortSignal> } {
  const sleeping = new Set<AbortSignal>();
  return {
    sleeping,
    now: () => NOW,
    sleep: (_ms, signal) =>
      new Promise(resolve => {
        sleeping.add(signal);
        signal.addEventListener('abort', () => {
          sleeping.delete(signal);
          resolve();
        });
      }),
  };
}

describe.each(databases.eachSupportedId())('DatabaseWriteLedger on %p', databaseId => {
  it("shows each replica the others' writes on the same GitHub, not its own, and forgets them after an hour", async () => {
    const knex = await migratedClient({ getClient: async () => databases.init(databaseId) });
    const [a, b] = [new DatabaseWriteLedger(knex, 'github.com'), new DatabaseWriteLedger(knex, 'github.com')];
    const elsewhere = new DatabaseWriteLedger(knex, 'ghe.example.com');

    await write(a, NOW - HOUR - 1);
    await write(a, NOW - 2500, NOW - 2000);
    await write(a, NOW - 1000);
    await write(elsewhere, NOW - 500);
    await write(b, NOW);

    const seen = async (ledger: DatabaseWriteLedger) => {
      let others: number[] = [];
      await ledger.claim(NOW, writes => {
        others = writes;
        return 1; // only looks
      });
      return others;
    };
    // a's second write counts from its answer.
    expect(await seen(b)).toEqual([NOW - 2000, NOW - 1000]);
    expect(await seen(a)).toEqual([NOW]);
    // b's write deleted what an hour's window no longer holds.
    expect(Number((await knex('github_writes').where('at', '<', NOW - HOUR).count({ n: '*' }))[0].n)).toBe(0);
  });

  it('lets two replicas claiming at the same instant take no more than the budget between them', async () => {
    const knex = await migratedClient({ getClient: async () => databases.init(databaseId) });
    const limits = { perMinute: 3, perHour: 500 };
    const replicas = [0, 1].map(() => {
      const clock = stoppedClock();
      return { clock, budget: new WriteBudget(limits, clock, undefined, new DatabaseWriteLedger(knex, 'github.com')) };
    });
    const admitted: Array<() => void> = [];

    // Three writes each, all asked for at once: each replica alone would let its three go.
    for (const { budget } of replicas) {
      for (let n = 0; n < 3; n++) void budget.acquire().then(answered => admitted.push(answered));
    }
    // Settled: every replica with writes still waiting sleeps until the minute has room.
    await until(() => replicas.every(({ clock, budget }) => budget.state().waiting === 0 || clock.sleeping.size === 1));

    expect(admitted).toHaveLength(3);
    expect(Number((await knex('github_writes').count({ n: '*' }))[0].n)).toBe(3);
  });
});
