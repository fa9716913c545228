import { TestDatabases } from '@backstage/backend-test-utils';
import { migratedClient } from './DatabasePromotionStore';
import { DatabaseWriteLedger } from './DatabaseWriteLedger';

jest.setTimeout(60_000);

const databases = TestDatabases.create({ ids: ['POSTGRES_15', 'SQLITE_3'] });
const HOUR = 60 * 60 * 1000;
const NOW = Date.parse('2026-12-04T12:00:00Z');

describe.each(databases.eachSupportedId())('DatabaseWriteLedger on %p', databaseId => {
  it("shows each replica the others' writes on the same GitHub, not its own, and forgets them after an hour", async () => {
    const knex = await migratedClient({ getClient: async () => databases.init(databaseId) });
    const [a, b] = [new DatabaseWriteLedger(knex, 'github.com'), new DatabaseWriteLedger(knex, 'github.com')];
    const elsewhere = new DatabaseWriteLedger(knex, 'ghe.example.com');

    await a.record(NOW - HOUR - 1);
    await a.record(NOW - 2000);
    await a.record(NOW - 1000);
    await elsewhere.record(NOW - 500);
    await b.record(NOW);

    expect(await b.othersSince(NOW - HOUR)).toEqual([NOW - 2000, NOW - 1000]);
    expect(await a.othersSince(NOW - HOUR)).toEqual([NOW]);
    expect(await b.othersSince(NOW - 1500)).toEqual([NOW - 1000]);
    // b's write deleted what an hour's window no longer holds.
    expect(Number((await knex('github_writes').where('at', '<', NOW - HOUR).count({ n: '*' }))[0].n)).toBe(0);
  });
});
