import { Knex } from 'knex';
import type {
  AutoDecision,
  ProductRef,
} from '@refplat/plugin-promotions-common';
import type {
  AutoDecisionStore,
  RecordedAutoDecision,
} from '@refplat/plugin-promotions-node';

export type {
  AutoDecisionStore,
  RecordedAutoDecision,
} from '@refplat/plugin-promotions-node';

/** The auto-promoter's decisions in the plugin's database, via knex. */
export class DatabaseAutoDecisionStore implements AutoDecisionStore {
  constructor(private readonly db: Knex) {}

  /**
   * Replaces the Product's earlier runs' decisions: only the latest run's are
   * ever read, and an organisation's 10,000 Products decided every 5 minutes
   * would otherwise add millions of rows a day.
   */
  async record(
    runId: string,
    product: ProductRef,
    decisions: AutoDecision[],
    at: Date,
  ) {
    if (decisions.length === 0) return;
    await this.db.transaction(async tx => {
      await tx('auto_promotion_decisions')
        .where({ team: product.team, product: product.product })
        .whereNot({ run_id: runId })
        .delete();
      await tx('auto_promotion_decisions').insert(
        decisions.map(decision => ({
          run_id: runId,
          team: product.team,
          product: product.product,
          from_stage: decision.fromStage,
          to_stage: decision.toStage,
          service: decision.service,
          decision: decision.decision,
          reason: decision.reason,
          digest: decision.digest ?? null,
          decided_at: at.toISOString(),
        })),
      );
    });
  }

  /** The decisions of the latest run that looked at the product. */
  async latest(product: ProductRef): Promise<RecordedAutoDecision[]> {
    const last = await this.db('auto_promotion_decisions')
      .where({ team: product.team, product: product.product })
      .orderBy('id', 'desc')
      .first();
    if (!last) return [];
    const rows = await this.db('auto_promotion_decisions')
      .where({
        run_id: last.run_id,
        team: product.team,
        product: product.product,
      })
      .orderBy('id', 'asc');
    return rows.map((row: any) => ({
      runId: row.run_id,
      decidedAt: row.decided_at,
      fromStage: row.from_stage,
      toStage: row.to_stage,
      service: row.service,
      decision: row.decision,
      reason: row.reason,
      digest: row.digest ?? undefined,
    }));
  }
}
