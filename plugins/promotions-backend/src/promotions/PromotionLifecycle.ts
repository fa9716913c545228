import {
  OpeningPhase,
  PROMOTION_TRANSITIONS,
  PromotionEvent,
  PromotionLifecycleEvent,
  PromotionStatus,
  PromotionTransitionRule,
  isLivePromotion,
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
import { PromotionOutcome, recordPromotionEnded } from '../telemetry/promotionsMetrics';

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
 * Whether a change from `from` to `to` ends a live promotion. A closed
 * promotion found merged after all (merged-before-closing) had already ended:
 * counting it again would count one promotion twice.
 */
function endsLivePromotion(from: readonly PromotionStatus[], to: PromotionStatus | 'unchanged'): to is PromotionOutcome {
  return to !== 'unchanged' && !isLivePromotion(to) && from.every(isLivePromotion);
}

/** Counts the ending once the store made the change (`changed`), not when another caller got there first. */
function countEnding(changed: PromotionRecord | undefined, from: readonly PromotionStatus[], to: PromotionStatus | 'unchanged') {
  if (changed && endsLivePromotion(from, to)) recordPromotionEnded(changed.kind ?? 'promotion', to);
  return changed;
}

/**
 * Applies `event` to promotion `id` by one compare-and-set: only if its
 * status and phase are ones the event may happen in (PROMOTION_TRANSITIONS)
 * and it still meets `step.expected`; the status becomes the rule's. The
 * one way, with decideLifecycleEvent, that a promotion's status changes.
 * Undefined when the promotion was not in such a state (someone else got
 * there first).
 */
export async function applyLifecycleEvent(
  store: PromotionStore,
  id: string,
  event: PromotionLifecycleEvent,
  step: LifecycleStep = {},
): Promise<PromotionRecord | undefined> {
  const rule: PromotionTransitionRule = PROMOTION_TRANSITIONS[event];
  const changed = await store.transition(
    id,
    { ...step.expected, status: [...rule.from], ...phaseExpectation(rule.phases) },
    { ...step.changes, ...(rule.to === 'unchanged' ? {} : { status: rule.to }) },
    step.audit,
  );
  return countEnding(changed, rule.from, rule.to);
}

/**
 * As applyLifecycleEvent, for a step decided from the promotion and its
 * trail inside the store's transaction (PromotionStore.decideTransition):
 * `decide` is asked only when the promotion's state allows one of
 * `candidates`, and answers one of them, or undefined for none.
 */
export async function decideLifecycleEvent<Event extends PromotionLifecycleEvent>(
  store: PromotionStore,
  id: string,
  candidates: readonly Event[],
  decide: (current: PromotionRecord, events: PromotionEvent[]) => LifecycleDecision<Event> | undefined,
): Promise<PromotionRecord | undefined> {
  // The change the store's transaction last decided: it may decide again when the database retries it.
  let decided: { from: PromotionStatus; to: PromotionStatus } | undefined;
  const changed = await store.decideTransition(id, (current, events) => {
    decided = undefined;
    const phase = promotionPhase(current);
    if (candidates.every(candidate => 'refused' in transition(current.status, candidate, phase))) return undefined;
    const decision = decide(current, events);
    if (!decision) return undefined;
    const next = transition(current.status, decision.event, phase);
    if ('refused' in next) return undefined;
    decided = { from: current.status, to: next.to };
    return {
      changes: { ...decision.changes, ...(next.to === current.status ? {} : { status: next.to }) },
      event: decision.audit,
    };
  });
  return decided ? countEnding(changed, [decided.from], decided.to) : changed;
}
