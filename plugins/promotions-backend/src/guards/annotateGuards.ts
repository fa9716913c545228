import { FreezeWindow, Ladder, activeFreezes, freezesOf } from '@refplat/plugin-promotions-common';
import { PromotionGuards } from './PromotionGuards';

/**
 * Puts on each rung the freeze window on now and every guard's verdict on
 * promoting the rung below into it, so people see the policy before they
 * ask (and the checklist lists it).
 */
export async function annotateGuards(
  ladder: Ladder,
  guards: PromotionGuards,
  freezes: FreezeWindow[],
  now = new Date(),
): Promise<void> {
  const productFreezes = freezesOf(freezes, ladder);
  for (const [index, stage] of ladder.stages.entries()) {
    stage.freeze = activeFreezes(productFreezes, stage.name, now)[0];
    const below = ladder.stages[index - 1];
    if (!below || !guards.any) continue;
    const services = Object.fromEntries(
      Object.entries(below.services).flatMap(([service, cell]) => (cell.digest ? [[service, cell.digest]] : [])),
    );
    stage.guards = await guards.evaluate(
      { team: ladder.team, product: ladder.product, fromStage: below.name, toStage: stage.name, services, requestedBy: '' },
      'preview',
      now,
    );
  }
}
