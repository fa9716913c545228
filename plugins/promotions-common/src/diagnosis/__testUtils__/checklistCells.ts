import type {
  ServiceHealthCheck,
  ServiceHealthCheckId,
} from '../../health/serviceHealth';
import type { LadderServiceCell } from '../../ladder/types';
import { PromotionChecklistContext, promotionChecklist } from '../checklist';
import type { PromotionChecklistItem, PromotionGate } from '../checklistItem';
import { EVERY_CHECK } from '../../health/__testUtils__/serviceHealthInput';
import { NEW, OLD } from './diagnosisInput';

/** The cells and context every promotionChecklist test starts from: staging → prod, all ok. */

/** A cell's health checks, each holding unless `failing` gives its detail. */
export function checks(
  failing: Partial<Record<ServiceHealthCheckId, string>> = {},
): ServiceHealthCheck[] {
  return EVERY_CHECK.map(id =>
    failing[id]
      ? { id, ok: false, detail: failing[id]!, verdict: 'unhealthy' }
      : { id, ok: true, detail: `${id} holds`, verdict: 'healthy' },
  );
}

export function cell(
  overrides: Partial<LadderServiceCell> = {},
): LadderServiceCell {
  return {
    digest: NEW,
    declared: true,
    healthy: true,
    verdict: 'healthy',
    reasons: [],
    checks: checks(),
    runningDigests: [NEW],
    waitingToClimb: false,
    soakRemainingSeconds: 0,
    ...overrides,
  };
}

export const CONTEXT: PromotionChecklistContext = {
  fromStage: 'staging',
  toStage: 'prod',
  requiresApproval: true,
  approvers: ['group:default/alpha-release-approvers'],
};

export function gate(
  items: PromotionChecklistItem[],
  name: PromotionGate,
): PromotionChecklistItem {
  const item = items.find(i => i.gate === name);
  if (!item) throw new Error(`no ${name} gate`);
  return item;
}

/**
 * A row of a table of gates: the source cell's and the target cell's changes (null: no target
 * cell at all), the context's, the gate read, whether it holds and what its detail says.
 */
export type GateRow = [
  string,
  Partial<LadderServiceCell> | undefined,
  Partial<LadderServiceCell> | null,
  Partial<PromotionChecklistContext>,
  PromotionGate,
  boolean,
  string,
];

/** The gate a row reads, from staging's cell and prod's (which runs OLD unless told). */
export function gateOf(
  sourceOverrides: GateRow[1],
  targetOverrides: GateRow[2],
  context: GateRow[3],
  gateName: PromotionGate,
): PromotionChecklistItem {
  const source = sourceOverrides === undefined ? cell() : cell(sourceOverrides);
  const target =
    targetOverrides === null
      ? undefined
      : cell({ digest: OLD, runningDigests: [OLD], ...targetOverrides });
  return gate(
    promotionChecklist(source, target, { ...CONTEXT, ...context }),
    gateName,
  );
}
