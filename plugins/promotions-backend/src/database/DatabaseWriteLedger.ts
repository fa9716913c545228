import { randomUUID } from 'node:crypto';
import { Knex } from 'knex';
import type { WriteLedger } from '../github/WriteBudget';

const HOUR_MS = 60 * 60 * 1000;

type Row = { budget: string; writer: string; at: number | string };

/**
 * The GitHub writes of every replica, in the plugin's database: a process
 * records its own as GitHub answers them and reads the others' before it
 * lets a write go. Rows older than an hour (the budget's longest window)
 * are deleted as new ones come.
 */
export class DatabaseWriteLedger implements WriteLedger {
  /** This process, as its rows name it. */
  private readonly writer = randomUUID();

  constructor(
    private readonly db: Knex,
    /** Whose limit the writes count against (the GitHub host). */
    private readonly budget: string,
  ) {}

  async record(at: number): Promise<void> {
    await this.db<Row>('github_writes').insert({ budget: this.budget, writer: this.writer, at });
    await this.db<Row>('github_writes').where('budget', this.budget).andWhere('at', '<=', at - HOUR_MS).delete();
  }

  async othersSince(since: number): Promise<number[]> {
    const rows = await this.db<Row>('github_writes')
      .where('budget', this.budget)
      .andWhere('writer', '!=', this.writer)
      .andWhere('at', '>', since)
      .orderBy('at', 'asc')
      .select('at');
    // PostgreSQL answers a bigint as a string.
    return rows.map(row => Number(row.at));
  }
}
