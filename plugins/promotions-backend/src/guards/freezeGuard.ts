import { FreezeWindow, freezeVerdict, freezesOf } from '@refplat/plugin-promotions-common';
import type { PromotionGuard } from '@refplat/plugin-promotions-node';

export const FREEZE_GUARD = 'freeze';

/** The built-in freeze guard: `promotions.freezes`, evaluated by the pure rules in -common. */
export function freezeGuard(windows: FreezeWindow[]): PromotionGuard {
  return {
    name: FREEZE_GUARD,
    evaluate: async (promotion, context) => freezeVerdict(freezesOf(windows, promotion), promotion.toStage, context.now),
  };
}
