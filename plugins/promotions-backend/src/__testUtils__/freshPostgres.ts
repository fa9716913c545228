import { spawnSync } from 'child_process';
import { randomBytes } from 'crypto';
import knexFactory from 'knex';

/** The server process tests use: the CI's, else a local one with trust auth. */
export const POSTGRES_URL =
  process.env.BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING ?? 'postgresql://postgres@127.0.0.1:5432';

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * Whether PostgreSQL accepts a query, decided synchronously (a test file
 * chooses between `describe` and `describe.skip` when it loads).
 */
export function postgresAnswers(): boolean {
  const probe = spawnSync(
    process.execPath,
    [
      '-e',
      `const knex = require('knex')({ client: 'pg', connection: process.argv[1], acquireConnectionTimeout: 3000 });
       knex.raw('select 1').then(() => process.exit(0), () => process.exit(1));`,
      withDatabase(POSTGRES_URL, 'postgres'),
    ],
    { cwd: __dirname, timeout: 15_000 },
  );
  return probe.status === 0;
}

/** A new, empty database for one test run; `drop` removes it. */
export async function createFreshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `promotions_process_${randomBytes(4).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: withDatabase(POSTGRES_URL, 'postgres'), pool: { min: 0, max: 1 } });
  await admin.raw(`CREATE DATABASE ${name}`);
  return {
    url: withDatabase(POSTGRES_URL, name),
    async drop() {
      await admin.raw('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid()', [name]);
      await admin.raw(`DROP DATABASE IF EXISTS ${name}`);
      await admin.destroy();
    },
  };
}
