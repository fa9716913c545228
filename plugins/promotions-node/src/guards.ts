import { createExtensionPoint } from '@backstage/backend-plugin-api';
import type { GuardContext, GuardVerdict, GuardedPromotion } from '@refplat/plugin-promotions-common';

export type { GuardContext, GuardVerdict, GuardedPromotion, GuardPhase, GuardVerdictKind } from '@refplat/plugin-promotions-common';

/**
 * A rule a promotion must pass, run when it is requested, by the Gate before
 * every merge, and by the auto-promoter. Its verdict is published on the PR
 * as the commit status `promotions/guard/<name>`.
 *
 * @public
 */
export interface PromotionGuard {
  /** Unique; letters, digits and dashes (it names a commit status). */
  name: string;
  evaluate(promotion: GuardedPromotion, context: GuardContext): Promise<GuardVerdict>;
}

/** @public */
export interface PromotionsGuardsExtensionPoint {
  addGuard(guard: PromotionGuard): void;
}

/**
 * Lets backend modules add guards to the promotions plugin.
 *
 * @public
 */
export const promotionsGuardsExtensionPoint = createExtensionPoint<PromotionsGuardsExtensionPoint>({
  id: 'promotions.guards',
});
