import { mockLogger } from '../__testUtils__/lightServices';
import type { RecordedArrival } from '@refplat/plugin-promotions-common';
import { RecordedReleaseTimelines } from './RecordedReleaseTimelines';

const d = (n: number) => `sha256:${String(n).repeat(64)}`;
const [A, B] = [d(1), d(2)];
const SHOP = { team: 'alpha', product: 'shop' };
const CREATED_THEN_CHANGED: RecordedArrival[] = [
  { service: 'web', digest: A, commit: 'c1', onboarding: true },
  { service: 'web', digest: B, commit: 'c2' },
];

/** Timelines that have read up to `cursor`, and a catch-up that moves them to `catchUpTo`. */
function world(options: { head: string; cursor?: string; catchUpTo?: string; arrivals?: RecordedArrival[]; catchUpFails?: boolean }) {
  let cursor = options.cursor;
  const timelineReader = {
    branch: 'refplat/platform/main',
    readNewCommits: jest.fn(async () => {
      if (options.catchUpFails) throw new Error('GitHub answered 502');
      cursor = options.catchUpTo ?? cursor;
      return 1;
    }),
  };
  const store = {
    recordedHistory: jest.fn(async () => (cursor ? { cursor, arrivals: options.arrivals ?? CREATED_THEN_CHANGED } : undefined)),
  };
  const timelines = new RecordedReleaseTimelines({
    files: { headCommit: async () => options.head },
    timelineReader,
    store,
    logger: mockLogger(),
  });
  return { timelines, timelineReader };
}

describe('RecordedReleaseTimelines', () => {
  it("answers a record's whole timeline, newest first, when the timelines have read the ladder's head", async () => {
    const { timelines, timelineReader } = world({ head: 'c2', cursor: 'c2' });
    expect(await timelines.timeline(SHOP, 'dev')).toEqual([{ web: B }, { web: A }]);
    expect(timelineReader.readNewCommits).not.toHaveBeenCalled();
  });

  it('catches up first when behind the head', async () => {
    const { timelines, timelineReader } = world({ head: 'c2', cursor: 'c1', catchUpTo: 'c2' });
    expect(await timelines.timeline(SHOP, 'dev')).toEqual([{ web: B }, { web: A }]);
    expect(timelineReader.readNewCommits).toHaveBeenCalledTimes(1);
  });

  it('leaves the first backfill to the metrics task: before it, git is read', async () => {
    const { timelines, timelineReader } = world({ head: 'c2' });
    expect(await timelines.timeline(SHOP, 'dev')).toBeUndefined();
    expect(timelineReader.readNewCommits).not.toHaveBeenCalled();
  });

  it.each([
    ['still behind after catching up (the branch moved on)', { head: 'c3', cursor: 'c1', catchUpTo: 'c2' }],
    ['the catch-up failed', { head: 'c2', cursor: 'c1', catchUpFails: true }],
    ['the record was created before the unbroken history', { head: 'c2', cursor: 'c2', arrivals: [CREATED_THEN_CHANGED[1]] }],
  ])('answers nothing, so git is read, when %s', async (_, options) => {
    const { timelines } = world(options);
    expect(await timelines.timeline(SHOP, 'dev')).toBeUndefined();
  });
});
