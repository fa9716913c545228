import { Ladder, LadderServiceCell, LadderStage, PromotionChecklistItem, cellBrief } from '@refplat/plugin-promotions-common';

export interface ServiceChecklist {
  service: string;
  items: PromotionChecklistItem[];
  /** How many passing gates were left out to keep a rung's list short. */
  passingLeftOut: number;
}

/** A cell's blocking gates and how many others, in either form of the ladder. */
function blockingOf(service: string, cell: LadderServiceCell): ServiceChecklist[] {
  const { blockingGates, otherGates } = cellBrief(cell);
  return blockingGates.length ? [{ service, items: blockingGates, passingLeftOut: otherGates }] : [];
}

/**
 * The gates of a promotion into `stage`: every gate of one service, or for a
 * rung only the blocking gates of the services waiting to climb (the rest
 * counted), so the list says what stands in the way and stays short. A
 * summary ladder's cell carries only its blocking gates: one service's list is
 * then those, the others counted, like a rung's.
 */
export function rungChecklist(
  ladder: Ladder,
  stage: LadderStage,
  service?: string,
): ServiceChecklist[] {
  if (service) {
    const cell = stage.services[service];
    if (!cell) return [];
    if (!cell.checklist) return blockingOf(service, cell);
    return cell.checklist.length ? [{ service, items: cell.checklist, passingLeftOut: 0 }] : [];
  }
  return ladder.services.flatMap(name => {
    const cell = stage.services[name];
    return cell?.waitingToClimb ? blockingOf(name, cell) : [];
  });
}
