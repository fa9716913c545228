import type { PromotionStatus } from '../types';
import type { PromotionPhase } from './promotionPhase';
import { PROMOTION_TRANSITIONS, PromotionLifecycleEvent, PromotionTransitionRule } from './promotionTransitions';

/**
 * The status an event leaves, or why it cannot happen.
 *
 * @public
 */
export type PromotionTransition = { to: PromotionStatus } | { refused: string };

/**
 * What `event` does to a promotion in `status` (and `phase`, when given:
 * the events about opening its PR happen before it has one).
 *
 * @public
 */
export function transition(
  status: PromotionStatus,
  event: PromotionLifecycleEvent,
  phase?: PromotionPhase,
): PromotionTransition {
  const rule: PromotionTransitionRule = PROMOTION_TRANSITIONS[event];
  if (!rule.from.includes(status)) {
    return { refused: `'${event}' cannot happen to a promotion that is ${status}, only to one that is ${rule.from.join(' or ')}` };
  }
  if (phase && rule.phases && !rule.phases.some(allowed => allowed === phase)) {
    return { refused: `'${event}' cannot happen to a promotion ${phase}, only to one ${rule.phases.join(' or ')}` };
  }
  return { to: rule.to === 'unchanged' ? status : rule.to };
}
