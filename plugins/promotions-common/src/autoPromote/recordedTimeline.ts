import type { ReleaseTimeline } from './digestAge';

/** One digest a Release record took at a commit, as the delivery-metrics timelines keep it. */
export interface RecordedArrival {
  service: string;
  digest: string;
  commit: string;
  /** The commit created the record (GitHub's file status `added`). */
  onboarding?: boolean;
}

/**
 * A Release record's whole timeline (newest first, as `judgeDigestAge`
 * reads it) from the arrivals recorded for it, oldest first, over an
 * unbroken stretch of the branch's history. Only a stretch that starts
 * where the record was created tells every digest's first arrival: one
 * that starts later does not say what came before, and gives undefined.
 * A commit records only the Services whose digest changed, so each entry
 * carries the others over from the one before.
 *
 * @public
 */
export function recordedTimeline(arrivals: ReadonlyArray<RecordedArrival>): ReleaseTimeline | undefined {
  if (!arrivals[0]?.onboarding) return undefined;
  const oldestFirst: Array<Record<string, string>> = [];
  let previousCommit: string | undefined;
  for (const { service, digest, commit } of arrivals) {
    if (commit !== previousCommit) {
      oldestFirst.push({ ...oldestFirst[oldestFirst.length - 1] });
      previousCommit = commit;
    }
    oldestFirst[oldestFirst.length - 1][service] = digest;
  }
  return oldestFirst.reverse();
}
