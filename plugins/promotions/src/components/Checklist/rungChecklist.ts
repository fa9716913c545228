import { Ladder, LadderStage, PromotionChecklistItem } from '@refplat/plugin-promotions-common';
import { gateLook } from './gateLabels';

export interface ServiceChecklist {
  service: string;
  items: PromotionChecklistItem[];
  /** How many passing gates were left out to keep a rung's list short. */
  passingLeftOut: number;
}

/**
 * The gates of a promotion into `stage`: every gate of one service, or for a
 * rung only the blocking gates of the services waiting to climb (the rest
 * counted), so the list says what stands in the way and stays short.
 */
export function rungChecklist(
  ladder: Ladder,
  stage: LadderStage,
  service?: string,
): ServiceChecklist[] {
  if (service) {
    const items = stage.services[service]?.checklist ?? [];
    return items.length ? [{ service, items, passingLeftOut: 0 }] : [];
  }
  return ladder.services.flatMap(name => {
    const cell = stage.services[name];
    const items = cell?.waitingToClimb ? cell.checklist ?? [] : [];
    const blocking = items.filter(item => gateLook(item) === 'blocked');
    return blocking.length
      ? [{ service: name, items: blocking, passingLeftOut: items.length - blocking.length }]
      : [];
  });
}
