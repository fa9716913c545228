import { randomUUID } from 'node:crypto';
import { Knex } from 'knex';
import type { LedgerClaim, WriteLedger } from '../github/WriteBudget';

const HOUR_MS = 60 * 60 * 1000;

type Row = { id: number; budget: string; writer: string; at: number | string };

/**
 * The GitHub writes of every replica, in the plugin's database: a process
 * claims each write here before it goes, and moves the claim to the time
 * GitHub answered it. Claims are taken one at a time over all replicas
 * (the budget's row in `github_write_budgets` is updated first, and the
 * database holds the next claim until this one's transaction ends), so a
 * claim always sees the others' writes, in flight ones included. Rows
 * older than an hour (the budget's longest window) are deleted as
 * answers come.
 */
export class DatabaseWriteLedger implements WriteLedger {
  /** This process, as its rows name it. */
  private readonly writer = randomUUID();
  private budgetRow?: Promise<void>;

  constructor(
    private readonly db: Knex,
    /** Whose limit the writes count against (the GitHub host). */
    private readonly budget: string,
  ) {}

  async claim(now: number, waitMs: (others: number[]) => number): Promise<LedgerClaim> {
    // Created once; tried again on the next claim when the database did not answer.
    await (this.budgetRow ??= this.createBudgetRow().catch(error => {
      this.budgetRow = undefined;
      throw error;
    }));
    return this.db.transaction(async tx => {
      await tx('github_write_budgets').where('budget', this.budget).update({ claimed_at: now });
      const others = await this.othersSince(now - HOUR_MS, tx);
      const wait = waitMs(others);
      if (wait > 0) return { waitMs: wait, others };
      const [row] = await tx<Row>('github_writes').insert({ budget: this.budget, writer: this.writer, at: now }, ['id']);
      const id = typeof row === 'object' ? row.id : row;
      return { waitMs: 0, others, answered: (at: number) => this.answered(id, at) };
    });
  }

  async record(at: number): Promise<void> {
    await this.db<Row>('github_writes').insert({ budget: this.budget, writer: this.writer, at });
    await this.forgetBefore(at - HOUR_MS);
  }

  private async othersSince(since: number, db: Knex): Promise<number[]> {
    const rows = await db<Row>('github_writes')
      .where('budget', this.budget)
      .andWhere('writer', '!=', this.writer)
      .andWhere('at', '>', since)
      .orderBy('at', 'asc')
      .select('at');
    // PostgreSQL answers a bigint as a string.
    return rows.map(row => Number(row.at));
  }

  /** The claimed write was answered at `at`: it counts from then. */
  private async answered(id: number, at: number): Promise<void> {
    await this.db<Row>('github_writes').where('id', id).update({ at });
    await this.forgetBefore(at - HOUR_MS);
  }

  private async forgetBefore(at: number) {
    await this.db<Row>('github_writes').where('budget', this.budget).andWhere('at', '<=', at).delete();
  }

  private async createBudgetRow() {
    await this.db('github_write_budgets').insert({ budget: this.budget, claimed_at: null }).onConflict('budget').ignore();
  }
}
