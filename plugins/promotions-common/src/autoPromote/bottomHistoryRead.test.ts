import { DigestAgeQuery, ReleaseTimeline, judgeDigestAge } from './digestAge';
import { PartialTimeline, bottomOrderSettled, partialTimeline } from './bottomHistoryRead';

const d = (n: number) => `sha256:${String(n).repeat(64).slice(0, 64)}`;
const [A, B, C] = [d(1), d(2), d(3)];

/** A timeline from oldest to newest (as people tell it), stored newest first. */
const timeline = (...digests: string[]): ReleaseTimeline => digests.map(digest => ({ cart: digest })).reverse();

/** `full` as read from its oldest end, `count` entries of it (the head is always known). */
const readOldest = (full: ReleaseTimeline, count: number): PartialTimeline => ({
  head: full[0],
  oldest: full.slice(Math.max(1, full.length - count)),
  unread: Math.max(0, full.length - 1 - count),
});

const question = (candidate: string, current?: string) => ({ service: 'cart', candidate, current });

describe('bottomOrderSettled', () => {
  it.each<[string, ReleaseTimeline, ReturnType<typeof question>, number]>([
    ['an ordinary new build: the target’s digest in the oldest version', timeline(A, C, C, B), question(B, A), 1],
    ['the target’s digest a little later', timeline(C, C, A, C, B), question(B, A), 3],
    ['a rollback below: dev went back to A; whether B came between is read', timeline(A, B, A), question(A, B), 2],
    ['the candidate first, the target’s digest never: read to the end', timeline(A, C, A), question(A, B), 2],
    ['neither in the history but the head: read to the end', timeline(C, C, C, B), question(B, A), 3],
    ['the candidate only in the middle, the target’s digest at the head', timeline(C, A, C, B), question(A, B), 2],
    ['nothing to judge: no digest in the target yet', timeline(C, C, B), question(B), 0],
    ['nothing to judge: the target runs it', timeline(C, C, B), question(B, B), 0],
  ])('%s: settled after %#', (_, full, q, reads) => {
    const settledAt = [...Array(full.length).keys()].find(count => bottomOrderSettled(readOldest(full, count), q));
    expect(settledAt).toBe(reads);
  });

  /** Every order of A, B and C over 1-5 versions: where settled, the partial answer is the whole history's. */
  const histories = (length: number): string[][] =>
    length === 0 ? [[]] : histories(length - 1).flatMap(rest => [A, B, C].map(digest => [...rest, digest]));

  it('gives the whole history’s answer wherever it says settled, for every history of up to five versions', () => {
    let checked = 0;
    for (let length = 1; length <= 5; length++) {
      for (const digests of histories(length)) {
        const full = timeline(...digests);
        for (const [candidate, current] of [[A, B], [B, A], [A, C], [C, B]]) {
          const query: DigestAgeQuery = {
            service: 'cart',
            candidate,
            current,
            target: [],
            bottom: full,
            targetStage: 'test',
            bottomStage: 'dev',
          };
          for (let count = 0; count < full.length; count++) {
            const read = readOldest(full, count);
            if (!bottomOrderSettled(read, query)) continue;
            expect(judgeDigestAge({ ...query, bottom: partialTimeline(read) })).toEqual(judgeDigestAge(query));
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });
});

describe('partialTimeline', () => {
  it('keeps each read entry at its place in the whole timeline', () => {
    expect(partialTimeline({ head: { cart: B }, oldest: [{ cart: C }, { cart: A }], unread: 2 })).toEqual([
      { cart: B },
      {},
      {},
      { cart: C },
      { cart: A },
    ]);
  });
});
