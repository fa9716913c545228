import { InMemoryAutoDecisionStore } from './InMemoryAutoDecisionStore';

const SHOP = { team: 'alpha', product: 'shop' };

describe('InMemoryAutoDecisionStore', () => {
  it("answers the latest run's decisions about a Product", async () => {
    const decisions = new InMemoryAutoDecisionStore();
    const at = new Date('2026-01-01T00:00:00Z');
    const decision = { fromStage: 'dev', toStage: 'uat', service: 'api', decision: 'skip' as const, reason: 'soaking' };
    await decisions.record('run-1', SHOP, [decision], at);
    await decisions.record('run-2', SHOP, [{ ...decision, decision: 'promote', reason: 'healthy' }], at);
    await decisions.record('run-3', { team: 'beta', product: 'x' }, [decision], at);
    expect(await decisions.latest(SHOP)).toEqual([
      { ...decision, decision: 'promote', reason: 'healthy', runId: 'run-2', decidedAt: at.toISOString() },
    ]);
  });
});
