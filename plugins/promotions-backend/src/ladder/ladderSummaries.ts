import { Ladder, summarizeLadder } from '@refplat/plugin-promotions-common';

/** Each shared build's summary, made once however many viewers ask for it (SharedLadders' object is theirs too). */
const summaries = new WeakMap<Ladder, Ladder>();

/** The ladder's summary form (`?detail=summary`), made once per ladder build. */
export function ladderSummary(ladder: Ladder): Ladder {
  let summary = summaries.get(ladder);
  if (summary === undefined) {
    summary = summarizeLadder(ladder);
    summaries.set(ladder, summary);
  }
  return summary;
}
