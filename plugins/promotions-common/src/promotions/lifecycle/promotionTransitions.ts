import { LIVE_PROMOTION_STATUSES } from '../livePromotion';
import type { PromotionStatus } from '../types';
import type { PromotionPhase } from './promotionPhase';

/**
 * What happens to a promotion, as its lifecycle sees it. Not its audit
 * trail's event types: several of these record the same audit event
 * (`closed` by the Gate, by GitHub or by the write queue), and some record
 * none (the Gate accepting a new head, taking a promotion from the queue).
 *
 * @public
 */
export type PromotionLifecycleEvent =
  /** Its PR was opened, or adopted from GitHub, and recorded. */
  | 'pull-request-opened'
  /** An opener took it from the write queue, with a lease. */
  | 'taken-from-queue'
  /** GitHub could not take the write: back in the queue at its place, the lease let go. */
  | 'returned-to-queue'
  /** Its opener finished a step on GitHub and holds its lease a while longer. */
  | 'opening-renewed'
  /** The target stage's Release changed while it waited in the queue. */
  | 'dropped-from-queue'
  /** GitHub refused opening its PR. */
  | 'opening-failed'
  /** Its opener's lease ran out and GitHub has no PR for it. */
  | 'opening-abandoned'
  /** The Gate verified a new PR head (someone pushed to the branch). */
  | 'head-accepted'
  /** The Gate recorded a new health verdict of the source stage. */
  | 'health-judged'
  /** The Gate recorded the guards' changed verdicts. */
  | 'guards-judged'
  /** A release-approver lifted the guards' blocks of a live promotion. */
  | 'guards-overridden'
  /** A request's override is noted in the trail of the promotion it opened, whatever became of it since. */
  | 'override-noted'
  /** A guard asks for an approval the stage alone would not. */
  | 'approval-required'
  /** An approval short of what the promotion needs. */
  | 'approval-counted'
  /** Its approvals are complete. */
  | 'approved'
  /** Its PR head moved after the approval. */
  | 'approval-voided'
  /** An incident opened that asks for an incident commander's approval as well. */
  | 'incident-opened'
  | 'merged-by-gate'
  /** GitHub refused the Gate's merge for a status check the base branch requires: it waits for that check. */
  | 'merge-held'
  | 'merged-on-github'
  | 'closed-on-github'
  /** The Gate closed it: its content, target or source no longer fit, or GitHub cannot merge it. */
  | 'closed-by-gate'
  | 'rejected'
  | 'withdrawn'
  /** A newer request into the same stage replaced it. */
  | 'superseded'
  /** Its PR had merged before a rejection or withdrawal closed it. */
  | 'merged-before-closing';

/**
 * The phases before a promotion has a PR: the only ones an event's rule
 * names, as only the opening of the PR has steps a status does not tell.
 *
 * @public
 */
export type OpeningPhase = Extract<PromotionPhase, 'queued' | 'opening'>;

/**
 * One event's rule: the statuses it may happen in, the status it leaves,
 * and, where the PR's opening matters, the phases it may happen in.
 *
 * @public
 */
export interface PromotionTransitionRule {
  from: readonly PromotionStatus[];
  to: PromotionStatus | 'unchanged';
  phases?: readonly OpeningPhase[];
}

const LIVE = LIVE_PROMOTION_STATUSES;
const ANY: readonly PromotionStatus[] = ['open', 'awaiting-approval', 'approved', 'merged', 'closed', 'failed'];
/** No PR recorded yet: queued, or being opened. */
const BEFORE_PULL_REQUEST: readonly OpeningPhase[] = ['queued', 'opening'];

/**
 * The promotion's state machine: every event, where it may happen and what
 * it leaves. The backend applies these (PromotionLifecycle) and the stores'
 * atomic supersede reads its status here (hence each rule's literal type).
 *
 * @public
 */
export const PROMOTION_TRANSITIONS = {
  'pull-request-opened': { from: LIVE, to: 'unchanged', phases: BEFORE_PULL_REQUEST },
  'taken-from-queue': { from: LIVE, to: 'unchanged', phases: ['queued'] },
  'returned-to-queue': { from: LIVE, to: 'unchanged', phases: ['opening'] },
  'opening-renewed': { from: LIVE, to: 'unchanged', phases: ['opening'] },
  'dropped-from-queue': { from: LIVE, to: 'closed', phases: BEFORE_PULL_REQUEST },
  'opening-failed': { from: LIVE, to: 'failed', phases: BEFORE_PULL_REQUEST },
  'opening-abandoned': { from: LIVE, to: 'failed', phases: BEFORE_PULL_REQUEST },
  'head-accepted': { from: LIVE, to: 'unchanged' },
  'health-judged': { from: LIVE, to: 'unchanged' },
  'guards-judged': { from: LIVE, to: 'unchanged' },
  'guards-overridden': { from: LIVE, to: 'unchanged' },
  'override-noted': { from: ANY, to: 'unchanged' },
  'approval-required': { from: ['open'], to: 'awaiting-approval' },
  'approval-counted': { from: ['awaiting-approval'], to: 'unchanged' },
  approved: { from: ['awaiting-approval'], to: 'approved' },
  'approval-voided': { from: ['approved'], to: 'awaiting-approval' },
  'incident-opened': { from: ['approved'], to: 'awaiting-approval' },
  'merged-by-gate': { from: LIVE, to: 'merged' },
  'merge-held': { from: LIVE, to: 'unchanged' },
  'merged-on-github': { from: LIVE, to: 'merged' },
  'closed-on-github': { from: LIVE, to: 'closed' },
  'closed-by-gate': { from: LIVE, to: 'closed' },
  rejected: { from: ['awaiting-approval', 'approved'], to: 'closed' },
  withdrawn: { from: LIVE, to: 'closed' },
  superseded: { from: LIVE, to: 'closed' },
  'merged-before-closing': { from: ['closed'], to: 'merged' },
} as const satisfies Readonly<Record<PromotionLifecycleEvent, PromotionTransitionRule>>;

/**
 * The status a promotion starts in: a stage (or guard) that needs an
 * approval has it wait for one from the start.
 *
 * @public
 */
export function requestedStatus(requiresApproval: boolean): PromotionStatus {
  return requiresApproval ? 'awaiting-approval' : 'open';
}
