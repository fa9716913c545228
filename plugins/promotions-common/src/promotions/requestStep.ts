import { OpeningFacts, judgeOpening } from './opening';

/**
 * What a request for a promotion does next, given the live promotion into
 * its target stage (if any). PromotionService applies the steps until one
 * answers: waiting and finishing an abandoned opening look again afterwards.
 *
 * @public
 */
export type RequestStep =
  /** The identical promotion has its PR (or, for bulk work, is queued already): it is the answer. */
  | { step: 'answer-existing' }
  /** A person asks for what bulk work queued: its PR opens now, not in its turn. */
  | { step: 'take-from-queue' }
  /** Another request is opening the identical promotion: wait for it, then look again. */
  | { step: 'wait'; ms: number }
  /** The identical promotion's opener stopped: finish its job from GitHub, then look again. */
  | { step: 'finish-abandoned' }
  /** Waited long enough for another request opening the identical promotion. */
  | { step: 'refuse-still-opening'; leaseEndsInMs: number }
  /** A different promotion is live and the request does not supersede it. */
  | { step: 'refuse-different' }
  /** Record a new promotion, superseding the live one if there is one. */
  | { step: 'insert'; supersedes: boolean };

/**
 * The live promotion as the rule reads it: where its opening stands, what it carries, and
 * the Release it was planned on.
 *
 * @public
 */
export interface LiveForRequest extends OpeningFacts {
  fingerprint: string;
  baseBlobSha?: string;
}

/** How often a request waiting for an identical one looks again. */
const POLL_MS = 200;

/**
 * The next step of a request (fingerprint, the Release it planned on, whether it is bulk
 * work for the queue and whether it may supersede) at `now`; `waitedEnough` once it has
 * waited as long as it may for an identical request.
 *
 * @public
 */
export function requestStep(
  live: LiveForRequest | undefined,
  request: { fingerprint: string; baseBlobSha?: string; queue: boolean; supersede: boolean },
  now: Date,
  waitedEnough: boolean,
): RequestStep {
  if (!live) return { step: 'insert', supersedes: false };
  const opening = judgeOpening(live, now);
  // A queued promotion was planned on the stage as it was then: one planned on another
  // Release replaces it, whatever it carries.
  const outdated = opening.state === 'queued' && !request.queue && live.baseBlobSha !== request.baseBlobSha;
  if (live.fingerprint === request.fingerprint && !outdated) {
    if (opening.state === 'opened' || (opening.state === 'queued' && request.queue)) return { step: 'answer-existing' };
    if (opening.state === 'queued') return { step: 'take-from-queue' };
    if (waitedEnough) {
      return { step: 'refuse-still-opening', leaseEndsInMs: opening.state === 'opening' ? opening.remainingMs : 0 };
    }
    if (opening.state === 'abandoned') return { step: 'finish-abandoned' };
    return { step: 'wait', ms: Math.min(POLL_MS, opening.remainingMs) };
  }
  return request.supersede ? { step: 'insert', supersedes: true } : { step: 'refuse-different' };
}
