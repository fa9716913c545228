import { LadderServiceCell } from '../ladder/types';
import { StageHistoryEntry } from './types';

/**
 * The two ways back from a stage's history row: `revert` undoes what the
 * row's commit changed (the digests it replaced, for the Services it
 * changed); `restore` returns the stage to the state after the commit.
 *
 * @public
 */
export type RollbackKind = 'revert' | 'restore';

/** One Service a rollback writes back. @public */
export interface RollbackChange {
  service: string;
  /** What the stage names now; undefined when it has no Release of it. */
  current?: string;
  /** The earlier digest the rollback writes. */
  target: string;
}

/** A Service the row touched that the rollback leaves as it is, and why. @public */
export interface RollbackSkip {
  service: string;
  reason: string;
}

/** @public */
export interface RollbackPlan {
  changes: RollbackChange[];
  skipped: RollbackSkip[];
}

/** The stage as the ladder shows it now: only each cell's digest and whether it is declared matter. @public */
export interface RollbackStage {
  name: string;
  services: Record<string, Pick<LadderServiceCell, 'digest' | 'declared'>>;
}

/** A Release PR writes digests; it never deletes a Service's entry. */
const CANNOT_REMOVE = 'a rollback writes digests and cannot remove a Service';

/**
 * Which Services a revert or a restore of a history row changes, from what
 * the stage names now to which digest, and which it leaves alone with the
 * reason (rather than dropping them unsaid). Services the stage's
 * Environment no longer declares are skipped: the backend refuses them.
 *
 * @public
 */
export function planRollback(
  kind: RollbackKind,
  stage: RollbackStage,
  entry: Pick<StageHistoryEntry, 'services' | 'changes'>,
): RollbackPlan {
  const plan: RollbackPlan = { changes: [], skipped: [] };
  const targets: Array<[string, string]> = [];
  if (kind === 'revert') {
    for (const { service, from } of entry.changes) {
      if (from) targets.push([service, from]);
      else plan.skipped.push({ service, reason: `added by this change: ${CANNOT_REMOVE}` });
    }
  } else {
    targets.push(...Object.entries(entry.services));
    for (const [service, cell] of Object.entries(stage.services)) {
      if (cell.declared && cell.digest && !(service in entry.services)) {
        plan.skipped.push({ service, reason: `not in this state: ${CANNOT_REMOVE}` });
      }
    }
  }
  for (const [service, target] of targets) {
    const cell = stage.services[service];
    const current = cell?.digest;
    if (!cell?.declared) {
      plan.skipped.push({ service, reason: `${stage.name}'s Environment no longer declares it` });
    } else if (current !== target) {
      plan.changes.push({ service, current, target });
    } else if (kind === 'revert') {
      // A restore leaves equal digests unsaid: they already are that state.
      plan.skipped.push({ service, reason: `${stage.name} already runs the digest this change replaced` });
    }
  }
  return plan;
}
