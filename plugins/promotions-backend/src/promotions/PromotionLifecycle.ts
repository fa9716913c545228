import {
  OpeningPhase,
  PROMOTION_TRANSITIONS,
  PromotionEvent,
  PromotionLifecycleEvent,
  PromotionTransitionRule,
  promotionPhase,
  transition,
} from '@refplat/plugin-promotions-common';
import {
  PromotionChanges,
  PromotionEventInput,
  PromotionExpectation,
  PromotionRecord,
  PromotionStore,
} from '../database/PromotionStore';

/** What a step changes besides the status, which the event's rule decides. */
export interface LifecycleStep {
  changes?: Omit<PromotionChanges, 'status'>;
  /**
   * The fields the caller acted on, as it read them: compare-and-set on top
   * of the event's rule (its statuses and phases).
   */
  expected?: Omit<PromotionExpectation, 'status' | 'noPullRequest' | 'queued'>;
  /** The promotion's audit trail's line, if the step records one. */
  audit?: PromotionEventInput;
}

/** A step decided from the promotion and its trail as they are (see decideLifecycleEvent). */
export interface LifecycleDecision<Event extends PromotionLifecycleEvent> {
  event: Event;
  changes?: Omit<PromotionChanges, 'status'>;
  audit: PromotionEventInput;
}

/**
 * The phases a rule allows, as the store's compare-and-set says them: no
 * PR recorded, and the queue mark set (queued) or not (opening).
 */
function phaseExpectation(phases: readonly OpeningPhase[] | undefined): Pick<PromotionExpectation, 'noPullRequest' | 'queued'> {
  if (!phases) return {};
  const queued = phases.includes('queued');
  return queued === phases.includes('opening') ? { noPullRequest: true } : { noPullRequest: true, queued };
}

/**
 * Applies `event` to promotion `id` by one compare-and-set: only if its
 * status and phase are ones the event may happen in (PROMOTION_TRANSITIONS)
 * and it still meets `step.expected`; the status becomes the rule's. The
 * one way, with decideLifecycleEvent, that a promotion's status changes.
 * Undefined when the promotion was not in such a state (someone else got
 * there first).
 */
export function applyLifecycleEvent(
  store: PromotionStore,
  id: string,
  event: PromotionLifecycleEvent,
  step: LifecycleStep = {},
): Promise<PromotionRecord | undefined> {
  const rule: PromotionTransitionRule = PROMOTION_TRANSITIONS[event];
  return store.transition(
    id,
    { ...step.expected, status: [...rule.from], ...phaseExpectation(rule.phases) },
    { ...step.changes, ...(rule.to === 'unchanged' ? {} : { status: rule.to }) },
    step.audit,
  );
}

/**
 * As applyLifecycleEvent, for a step decided from the promotion and its
 * trail inside the store's transaction (PromotionStore.decideTransition):
 * `decide` is asked only when the promotion's state allows one of
 * `candidates`, and answers one of them, or undefined for none.
 */
export function decideLifecycleEvent<Event extends PromotionLifecycleEvent>(
  store: PromotionStore,
  id: string,
  candidates: readonly Event[],
  decide: (current: PromotionRecord, events: PromotionEvent[]) => LifecycleDecision<Event> | undefined,
): Promise<PromotionRecord | undefined> {
  return store.decideTransition(id, (current, events) => {
    const phase = promotionPhase(current);
    if (candidates.every(candidate => 'refused' in transition(current.status, candidate, phase))) return undefined;
    const decision = decide(current, events);
    if (!decision) return undefined;
    const next = transition(current.status, decision.event, phase);
    if ('refused' in next) return undefined;
    return {
      changes: { ...decision.changes, ...(next.to === current.status ? {} : { status: next.to }) },
      event: decision.audit,
    };
  });
}
