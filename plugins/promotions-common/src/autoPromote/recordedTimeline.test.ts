import { judgeDigestAge } from './digestAge';
import { RecordedArrival, recordedTimeline } from './recordedTimeline';

const d = (n: number) => `sha256:${String(n).repeat(64).slice(0, 64)}`;
const [A, B, C, D] = [d(1), d(2), d(3), d(4)];

const created = (commit: string, services: Record<string, string>): RecordedArrival[] =>
  Object.entries(services).map(([service, digest]) => ({ service, digest, commit, onboarding: true }));
const changed = (commit: string, services: Record<string, string>): RecordedArrival[] =>
  Object.entries(services).map(([service, digest]) => ({ service, digest, commit }));

describe('recordedTimeline', () => {
  it.each<[string, RecordedArrival[], ReturnType<typeof recordedTimeline>]>([
    ['nothing recorded', [], undefined],
    ['a stretch that starts after the record was created', changed('c2', { web: B }), undefined],
    ['the creation alone', created('c1', { web: A, api: C }), [{ web: A, api: C }]],
    [
      'each commit an entry, the unchanged Services carried over, newest first',
      [...created('c1', { web: A, api: C }), ...changed('c2', { web: B }), ...changed('c3', { api: D, web: A })],
      [{ web: A, api: D }, { web: B, api: C }, { web: A, api: C }],
    ],
    [
      'a Service added later joins from its commit on',
      [...created('c1', { web: A }), ...changed('c2', { api: C })],
      [{ web: A, api: C }, { web: A }],
    ],
  ])('%s', (_, arrivals, expected) => {
    expect(recordedTimeline(arrivals)).toEqual(expected);
  });

  it.each<[string, RecordedArrival[], ReturnType<typeof recordedTimeline>]>([
    ['nothing since: the timeline read from git', [], [{ web: B }, { web: A }]],
    [
      'the arrivals since, on top of it',
      [...changed('c5', { web: C }), ...changed('c6', { api: D })],
      [{ web: C, api: D }, { web: C }, { web: B }, { web: A }],
    ],
  ])('continues a timeline read from git where the stretch starts: %s', (_, arrivals, expected) => {
    expect(recordedTimeline(arrivals, [{ web: B }, { web: A }])).toEqual(expected);
  });

  it('gives judgeDigestAge the answer the record’s git history gives: a rollback in dev is older', () => {
    // dev took A, then B (test took B from it), then went back to A.
    const bottom = recordedTimeline([...created('c1', { web: A }), ...changed('c2', { web: B }), ...changed('c3', { web: A })])!;
    const ask = (candidate: string, current: string) =>
      judgeDigestAge({ service: 'web', candidate, current, target: [], bottom, targetStage: 'test', bottomStage: 'dev' }).age;
    expect(ask(A, B)).toBe('older');
    expect(ask(B, A)).toBe('newer');
  });
});
