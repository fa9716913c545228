import type { Knex } from 'knex';

/**
 * Whether the plugin's database lives in the process's memory (SQLite `:memory:`, as
 * `@backstage/create-app`'s backend is configured): a restart then forgets every promotion.
 */
export function isInMemoryDatabase(db: Knex): boolean {
  const config = db.client?.config as Knex.Config | undefined;
  const client = String(config?.client ?? '');
  if (!/sqlite/.test(client)) return false;
  const connection = config?.connection as string | { filename?: string } | undefined;
  const filename = typeof connection === 'string' ? connection : connection?.filename;
  return filename === undefined || filename === '' || filename === ':memory:' || filename.startsWith('file::memory:');
}

/**
 * What the start-up warning says an in-memory database loses, and what to do about it. It does
 * not quote the connection: Backstage's logger hides config values, and ':memory:' read as '***'.
 */
export const IN_MEMORY_DATABASE_WARNING =
  "The promotions plugin's database is in memory (SQLite without a file, as create-app's backend has it): a restart forgets every promotion's " +
  'history, approvals and audit trail. Open Release PRs survive (the Gate restores them from GitHub), but ' +
  'approvals given before the restart must be given again. Use a persistent database: ' +
  "backend.database.client 'pg', or better-sqlite3 with connection.directory.";
