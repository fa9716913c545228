import { LadderStage, StageHistoryEntry } from '@refplat/plugin-promotions-common';

export interface RollbackChange {
  service: string;
  /** What the stage runs now; undefined when it has no Release of it. */
  current?: string;
  /** The earlier digest the rollback writes back. */
  target: string;
}

/**
 * The services whose digest in a history entry differs from what the stage
 * names now. Services the stage no longer declares are left out: the backend
 * refuses to roll them back.
 */
export function rollbackChanges(
  stage: LadderStage,
  entry: StageHistoryEntry,
): RollbackChange[] {
  return Object.entries(entry.services)
    .filter(([service, digest]) => {
      const cell = stage.services[service];
      return cell?.declared && cell.digest !== digest;
    })
    .map(([service, target]) => ({
      service,
      current: stage.services[service]?.digest,
      target,
    }));
}
