import { shortDigestText } from '../health/format';

/**
 * Which of two digests of a Service is newer. A digest is new or old by
 * when it first reached the bottom rung (dev), not by when it last arrived
 * in some stage: a rollback below, a lifted hold or a hand-merged
 * downgrade moves an old digest around without making it new. (A rollback
 * of the target itself is kept by its hold, not by this rule: the digest
 * rolled back from is still the newer one.)
 */

/**
 * A stage's Release record over time, newest commit first: each entry maps
 * a Service to the digest the record named at that commit.
 *
 * @public
 */
export type ReleaseTimeline = ReadonlyArray<Readonly<Record<string, string>>>;

/** @public */
export interface DigestAgeQuery {
  service: string;
  /** The digest offered from the stage below. */
  candidate: string;
  /** The digest the target stage releases now (absent: none yet). */
  current?: string;
  /** The target stage's Release record over time, newest first (its first entry is now). */
  target: ReleaseTimeline;
  /** The bottom rung's Release record over time, newest first. */
  bottom: ReleaseTimeline;
  /** Names for sentences. */
  targetStage: string;
  bottomStage: string;
}

/**
 * `newer`: the candidate reached the bottom rung after the target's digest;
 * `older`: a downgrade, with the sentence that says why; `unknown`: the
 * histories read do not go back far enough to tell.
 *
 * @public
 */
export type DigestAge =
  | { age: 'newer' | 'unknown' }
  | { age: 'older'; reason: string };

/** The index of the oldest entry naming `digest` (newest first, so the largest), or -1. */
function firstArrival(timeline: ReleaseTimeline, service: string, digest: string): number {
  for (let i = timeline.length - 1; i >= 0; i--) {
    if (timeline[i][service] === digest) return i;
  }
  return -1;
}

/**
 * Whether the candidate `a` arrived at the bottom rung before `b`; undefined
 * when the bottom rung's history read cannot tell. A candidate missing there
 * may be older than the read, or hand-merged into a stage above the bottom
 * (a hotfix): calling it older would keep a hotfix from ever climbing, so
 * that is left to the target's history. A `b` missing there, with `a`
 * present, is older than `a` or skipped the bottom rung: `a` is newer.
 */
function arrivedAtBottomEarlier(bottom: ReleaseTimeline, service: string, a: string, b: string): boolean | undefined {
  const arrivalA = firstArrival(bottom, service, a);
  const arrivalB = firstArrival(bottom, service, b);
  if (arrivalA < 0) return undefined;
  return arrivalB >= 0 && arrivalA > arrivalB;
}

/** Whether `a` arrived in the target before `b`; undefined unless the target ran both. */
function arrivedInTargetEarlier(target: ReleaseTimeline, service: string, a: string, b: string): boolean | undefined {
  const arrivalA = firstArrival(target, service, a);
  const arrivalB = firstArrival(target, service, b);
  return arrivalA < 0 || arrivalB < 0 ? undefined : arrivalA > arrivalB;
}

/**
 * Whether `candidate` is newer than what the target stage runs, for the
 * auto-promoter (which never downgrades): by first arrival at the bottom
 * rung, else, when neither digest is in the bottom rung's history read, by
 * first arrival in the target's.
 *
 * @public
 */
export function judgeDigestAge(query: DigestAgeQuery): DigestAge {
  const { service, candidate, current } = query;
  if (!current || current === candidate) return { age: 'newer' };
  const atBottom = arrivedAtBottomEarlier(query.bottom, service, candidate, current);
  const older = atBottom ?? arrivedInTargetEarlier(query.target, service, candidate, current);
  if (older === undefined) return { age: 'unknown' };
  if (!older) return { age: 'newer' };
  const where = atBottom === undefined ? query.targetStage : query.bottomStage;
  return {
    age: 'older',
    reason: `${shortDigestText(candidate)} reached ${where} before ${query.targetStage}'s ${shortDigestText(current)}`,
  };
}
