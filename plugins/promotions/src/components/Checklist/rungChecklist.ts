import { Ladder, LadderStage, PromotionChecklistItem } from '@refplat/plugin-promotions-common';

export interface ServiceChecklist {
  service: string;
  items: PromotionChecklistItem[];
}

/**
 * The gates of a promotion into `stage`, per service: one service's own
 * checklist, or for the rung those of the services whose digest differs from
 * the stage below. When none differ, those of the services with a failing
 * gate, so the reason never goes unexplained.
 */
export function rungChecklist(
  ladder: Ladder,
  stage: LadderStage,
  service?: string,
): ServiceChecklist[] {
  const withItems = (services: string[]) =>
    services.flatMap(name => {
      const items = stage.services[name]?.checklist;
      return items && items.length ? [{ service: name, items }] : [];
    });
  if (service) return withItems([service]);

  const index = ladder.stages.findIndex(candidate => candidate.name === stage.name);
  const below = index > 0 ? ladder.stages[index - 1] : undefined;
  const differing = ladder.services.filter(name => {
    const source = below?.services[name]?.digest;
    const cell = stage.services[name];
    return cell?.waitingToClimb || (!!source && source !== cell?.digest);
  });
  const listed = withItems(differing);
  if (listed.length) return listed;
  return withItems(ladder.services).filter(entry => entry.items.some(item => !item.ok));
}
