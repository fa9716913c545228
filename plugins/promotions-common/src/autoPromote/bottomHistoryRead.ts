import type { ReleaseTimeline } from './digestAge';

/**
 * The bottom rung's history as read so far, from its oldest end: a Release
 * record's versions cost a GitHub read each, and the order of two digests'
 * first arrivals is often told by the oldest few.
 *
 * @public
 */
export interface PartialTimeline {
  /** The newest entry (the branch head's file, known without a read). */
  head: Readonly<Record<string, string>>;
  /** The oldest entries read, newest first, ending with the oldest commit listed. */
  oldest: ReleaseTimeline;
  /** How many entries between `head` and `oldest` are not read. */
  unread: number;
}

/** Where a digest first arrived, as far as `read` tells: in the oldest entries (final), or not there. */
function inOldest(read: PartialTimeline, service: string, digest: string): boolean {
  return read.oldest.some(entry => entry[service] === digest);
}

/**
 * Whether the entries not read yet could still change `judgeDigestAge`'s
 * bottom-rung answer for `candidate` against `current`. A digest found in
 * the oldest entries has its first arrival there. One found there while the
 * other is not: the other arrived later, if at all, and the head says
 * whether it did. So reading from the oldest end stops as soon as both are
 * placed, and an ordinary new build (its digest only at the head, the
 * target's in an old version) costs the reads down to the target's digest.
 *
 * @public
 */
export function bottomOrderSettled(
  read: PartialTimeline,
  question: { service: string; candidate: string; current?: string },
): boolean {
  const { service, candidate, current } = question;
  if (!current || current === candidate || read.unread === 0) return true;
  const candidateOld = inOldest(read, service, candidate);
  const currentOld = inOldest(read, service, current);
  if (candidateOld && currentOld) return true;
  if (candidateOld) return read.head[service] === current;
  if (currentOld) return read.head[service] === candidate;
  return false;
}

/**
 * The timeline `judgeDigestAge` reads, with the unread entries empty: where
 * `bottomOrderSettled` holds, its answer is the one the whole history gives.
 *
 * @public
 */
export function partialTimeline(read: PartialTimeline): ReleaseTimeline {
  return [read.head, ...Array.from({ length: read.unread }, () => ({})), ...read.oldest];
}
