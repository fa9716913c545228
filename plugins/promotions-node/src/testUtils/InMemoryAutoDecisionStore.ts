import type { AutoDecision, ProductRef } from '@refplat/plugin-promotions-common';
import { AutoDecisionStore, RecordedAutoDecision } from '@refplat/plugin-promotions-node';

/**
 * An in-memory `AutoDecisionStore`: every run's decisions, the latest run per Product read back.
 *
 * @public
 */
export class InMemoryAutoDecisionStore implements AutoDecisionStore {
  private readonly recorded: Array<RecordedAutoDecision & { key: string }> = [];

  async record(runId: string, product: ProductRef, decisions: AutoDecision[], at: Date): Promise<void> {
    const key = `${product.team}/${product.product}`;
    for (const decision of decisions) {
      this.recorded.push({ ...decision, runId, decidedAt: at.toISOString(), key });
    }
  }

  async latest(product: ProductRef): Promise<RecordedAutoDecision[]> {
    const key = `${product.team}/${product.product}`;
    const mine = this.recorded.filter(decision => decision.key === key);
    const lastRun = mine[mine.length - 1]?.runId;
    return mine.filter(decision => decision.runId === lastRun).map(({ key: _key, ...decision }) => decision);
  }
}
