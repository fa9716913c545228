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
 * that starts later does not say what came before, and gives undefined,
 * unless `before` gives the record's timeline as it stood where the
 * stretch starts (read from git once). A commit records only the Services
 * whose digest changed, so each entry carries the others over from the one
 * before.
 *
 * @public
 */
export function recordedTimeline(
  arrivals: ReadonlyArray<RecordedArrival>,
  before?: ReleaseTimeline,
): ReleaseTimeline | undefined {
  if (!before && !arrivals[0]?.onboarding) return undefined;
  const newestFirst: Array<Readonly<Record<string, string>>> = [...(before ?? [])];
  let previousCommit: string | undefined;
  for (const { service, digest, commit } of arrivals) {
    if (commit !== previousCommit) {
      newestFirst.unshift({ ...newestFirst[0] });
      previousCommit = commit;
    }
    newestFirst[0] = { ...newestFirst[0], [service]: digest };
  }
  return newestFirst;
}
