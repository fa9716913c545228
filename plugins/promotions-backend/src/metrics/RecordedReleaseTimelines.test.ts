import type { RecordedArrival, ReleaseTimeline } from '@refplat/plugin-promotions-common';
import { mockLogger } from '../__testUtils__/lightServices';
import type { ReleaseBaseline, TimelinePosition } from './DigestTimelineStore';
import { RecordedReleaseTimelines } from './RecordedReleaseTimelines';

const d = (n: number) => `sha256:${String(n).repeat(64)}`;
const [A, B, C] = [d(1), d(2), d(3)];
const SHOP = { team: 'alpha', product: 'shop' };

/** Arrivals by id, as the store numbers them. */
type Numbered = RecordedArrival & { id: number };
const CREATED_THEN_CHANGED: Numbered[] = [
  { id: 1, service: 'web', digest: A, commit: 'c1', onboarding: true },
  { id: 2, service: 'web', digest: B, commit: 'c2' },
];

/**
 * Timelines at `position` (none: never read), a catch-up that moves them to
 * `catchUpTo`, and a branch head that moves to `headAfterRead` once git is read.
 */
function world(options: {
  head: string;
  position?: TimelinePosition;
  catchUpTo?: TimelinePosition;
  catchUpFails?: boolean;
  arrivals?: Numbered[];
  baseline?: ReleaseBaseline;
  headAfterRead?: string;
}) {
  let { position, head } = options;
  let baseline = options.baseline;
  const timelineReader = {
    branch: 'refplat/platform/main',
    readNewCommits: jest.fn(async () => {
      if (options.catchUpFails) throw new Error('GitHub answered 502');
      position = options.catchUpTo ?? position;
      return 1;
    }),
  };
  const store = {
    position: async () => position,
    arrivalsAfter: async (_product: unknown, _stage: string, afterId: number) =>
      (options.arrivals ?? CREATED_THEN_CHANGED).filter(arrival => arrival.id > afterId).map(({ id: _id, ...arrival }) => arrival),
    baseline: async () => baseline,
    saveBaseline: jest.fn(async (_product: unknown, _stage: string, saved: ReleaseBaseline) => {
      baseline = saved;
    }),
  };
  const timelines = new RecordedReleaseTimelines({
    files: { headCommit: async () => head },
    timelineReader,
    store,
    logger: mockLogger(),
  });
  const readGit = jest.fn(async (): Promise<ReleaseTimeline> => {
    head = options.headAfterRead ?? head;
    return [{ web: A }];
  });
  return { timelines, timelineReader, store, readGit };
}

const at = (cursor: string, lastArrivalId: number, completeAfterId = 0): TimelinePosition => ({ cursor, lastArrivalId, completeAfterId });

describe('RecordedReleaseTimelines', () => {
  it("answers a record's whole timeline, newest first, when the timelines have read the ladder's head", async () => {
    const { timelines, timelineReader, readGit } = world({ head: 'c2', position: at('c2', 2) });
    expect(await timelines.timeline(SHOP, 'dev', readGit)).toEqual([{ web: B }, { web: A }]);
    expect(timelineReader.readNewCommits).not.toHaveBeenCalled();
    expect(readGit).not.toHaveBeenCalled();
  });

  it('catches up first when behind the head', async () => {
    const { timelines, timelineReader, readGit } = world({ head: 'c2', position: at('c1', 1), catchUpTo: at('c2', 2) });
    expect(await timelines.timeline(SHOP, 'dev', readGit)).toEqual([{ web: B }, { web: A }]);
    expect(timelineReader.readNewCommits).toHaveBeenCalledTimes(1);
  });

  it('leaves the first backfill to the metrics task: before it, nothing is read or kept', async () => {
    const { timelines, timelineReader, readGit } = world({ head: 'c2' });
    expect(await timelines.timeline(SHOP, 'dev', readGit)).toBeUndefined();
    expect(timelineReader.readNewCommits).not.toHaveBeenCalled();
    expect(readGit).not.toHaveBeenCalled();
  });

  it.each([
    ['still behind after catching up (the branch moved on)', { head: 'c3', position: at('c1', 1), catchUpTo: at('c2', 2) }],
    ['the catch-up failed', { head: 'c2', position: at('c1', 1), catchUpFails: true }],
  ])('answers nothing, and reads nothing, when %s', async (_, options) => {
    const { timelines, readGit } = world(options);
    expect(await timelines.timeline(SHOP, 'dev', readGit)).toBeUndefined();
    expect(readGit).not.toHaveBeenCalled();
  });

  describe('a record older than the timelines', () => {
    const OLDER: Numbered[] = [{ id: 5, service: 'web', digest: C, commit: 'c5' }];

    it('is read from git once, and from then on answered from that and its later arrivals', async () => {
      const { timelines, store, readGit } = world({ head: 'c4', position: at('c4', 4, 1), arrivals: OLDER });
      expect(await timelines.timeline(SHOP, 'dev', readGit)).toEqual([{ web: A }]);
      expect(store.saveBaseline).toHaveBeenCalledWith(SHOP, 'dev', { afterArrivalId: 4, timeline: [{ web: A }] });
      // c5 changed it after git was read.
      expect(await timelines.timeline(SHOP, 'dev', readGit)).toEqual([{ web: C }, { web: A }]);
      expect(readGit).toHaveBeenCalledTimes(1);
    });

    it('is not kept when the branch moved while git was read (which head it read is unknown)', async () => {
      const { timelines, store, readGit } = world({ head: 'c4', position: at('c4', 4, 1), arrivals: OLDER, headAfterRead: 'c5' });
      expect(await timelines.timeline(SHOP, 'dev', readGit)).toEqual([{ web: A }]);
      expect(store.saveBaseline).not.toHaveBeenCalled();
    });

    it('is read from git again after a gap in the history read since', async () => {
      const baseline = { afterArrivalId: 4, timeline: [{ web: B }] };
      const { timelines, store, readGit } = world({ head: 'c9', position: at('c9', 9, 6), arrivals: OLDER, baseline });
      expect(await timelines.timeline(SHOP, 'dev', readGit)).toEqual([{ web: A }]);
      expect(store.saveBaseline).toHaveBeenCalledWith(SHOP, 'dev', { afterArrivalId: 9, timeline: [{ web: A }] });
    });
  });
});
