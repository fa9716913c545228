import Knex from 'knex';
import os from 'os';
import path from 'path';
import { isInMemoryDatabase } from './inMemoryDatabase';

describe('isInMemoryDatabase', () => {
  it.each<[string, Knex.Knex.Config, boolean]>([
    ["SQLite ':memory:' (create-app's backend)", { client: 'better-sqlite3', connection: ':memory:' }, true],
    ["SQLite { filename: ':memory:' }", { client: 'better-sqlite3', connection: { filename: ':memory:' } }, true],
    ['SQLite on a file', { client: 'better-sqlite3', connection: { filename: path.join(os.tmpdir(), 'promotions.sqlite') } }, false],
    ['PostgreSQL', { client: 'pg', connection: 'postgresql://postgres@127.0.0.1:5432/x' }, false],
  ])('%s → %p', (_case, config, expected) => {
    const db = Knex({ ...config, useNullAsDefault: true });
    try {
      expect(isInMemoryDatabase(db)).toBe(expected);
    } finally {
      void db.destroy();
    }
  });
});
