import type { AutoDecision, AutoPromoteContext } from '../decide';

/** The instant every auto-promotion test decides at. */
export const NOW = new Date('2025-06-01T12:00:00Z');

/** An ISO time `seconds` before NOW. */
export const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000).toISOString();

/** A context with no holds, soaks or live promotions, deciding at NOW. */
export function context(overrides: Partial<AutoPromoteContext> = {}): AutoPromoteContext {
  return { holds: [], soakSeconds: {}, healthySince: {}, livePromotions: [], now: NOW, ...overrides };
}

/** The one decision for (toStage, service). */
export function decisionFor(decisions: AutoDecision[], toStage: string, service: string): AutoDecision {
  const found = decisions.filter(x => x.toStage === toStage && x.service === service);
  expect(found).toHaveLength(1);
  return found[0];
}
