import { mockCache } from '../__testUtils__/lightServices';
import { ReleaseTimeline } from '@refplat/plugin-promotions-common';
import { DigestAges } from './DigestAges';

const d = (n: number) => `sha256:${String(n).repeat(64)}`;
const [A, B, C] = [d(1), d(2), d(3)];
const product = { team: 'alpha', product: 'shop' };

/** Histories newest first, as GitHub lists commits; counts the reads. */
function timelines(histories: Record<string, ReleaseTimeline>) {
  const reads: string[] = [];
  return {
    reads,
    timeline: async (_product: unknown, stage: string) => {
      reads.push(stage);
      return histories[stage] ?? [];
    },
    // All of it, as read (StageHistory.test.ts counts how far back the real one reads).
    timelineUntil: async (_product: unknown, stage: string) => {
      reads.push(stage);
      const [head = {}, ...older] = histories[stage] ?? [];
      return { head, oldest: older, unread: 0 };
    },
  };
}

describe('DigestAges', () => {
  it('judges by the bottom rung alone when it can, and reads each history once per call', async () => {
    const source = timelines({ dev: [{ cart: A }, { cart: B }, { cart: A }], test: [{ cart: B }] });
    const ages = new DigestAges({ stages: ['dev', 'test', 'uat'], timelines: source, cache: mockCache() });
    const answers = await ages.judge(
      product,
      [
        { toStage: 'test', service: 'cart', candidate: A, current: B },
        { toStage: 'uat', service: 'cart', candidate: B, current: A },
      ],
      { readHistory: true },
    );
    expect(answers).toEqual([
      { age: 'older', reason: expect.stringMatching(/reached dev before test's/) },
      { age: 'newer' },
    ]);
    expect(source.reads).toEqual(['dev']);
  });

  it("reads the target's history only when the bottom rung's is too short", async () => {
    const source = timelines({ dev: [{ cart: C }], test: [{ cart: B }, { cart: A }] });
    const ages = new DigestAges({ stages: ['dev', 'test'], timelines: source, cache: mockCache() });
    const question = { toStage: 'test', service: 'cart', candidate: A, current: B };
    expect(await ages.judge(product, [question], { readHistory: true })).toEqual([
      { age: 'older', reason: expect.stringMatching(/reached test before test's/) },
    ]);
    expect(source.reads.sort()).toEqual(['dev', 'test']);
  });

  it('remembers a judgement: the same pair of digests costs no history read again, and a view reads none', async () => {
    const source = timelines({ dev: [{ cart: B }, { cart: A }] });
    const cache = new Map<string, unknown>();
    const ages = new DigestAges({
      stages: ['dev', 'test'],
      timelines: source,
      cache: mockCache({
        get: async (key: string) => cache.get(key) as any,
        set: async (key: string, value: any) => void cache.set(key, value),
      }),
    });
    const question = { toStage: 'test', service: 'cart', candidate: B, current: A };
    // A view before anything judged the pair: no answer, and no read.
    expect(await ages.judge(product, [question], { readHistory: false })).toEqual([undefined]);
    expect(source.reads).toEqual([]);
    expect(await ages.judge(product, [question], { readHistory: true })).toEqual([{ age: 'newer' }]);
    // Then views (and later runs) answer from the judgement, at no cost.
    expect(await ages.judge(product, [question], { readHistory: false })).toEqual([{ age: 'newer' }]);
    expect(source.reads).toEqual(['dev']);
  });

  it("takes the bottom rung's whole history from the recorded timelines where they hold it, reading none from git", async () => {
    const source = timelines({ dev: [{ cart: B }, { cart: A }] });
    const recorded = { timeline: jest.fn(async () => [{ cart: A }, { cart: B }, { cart: A }] as ReleaseTimeline) };
    const ages = new DigestAges({ stages: ['dev', 'test'], timelines: source, recorded, cache: mockCache() });
    // dev went back to A after B: A is the older one, whatever git's last version says.
    expect(await ages.judge(product, [{ toStage: 'test', service: 'cart', candidate: A, current: B }], { readHistory: true })).toEqual([
      { age: 'older', reason: expect.stringMatching(/reached dev before test's/) },
    ]);
    expect(recorded.timeline).toHaveBeenCalledWith(product, 'dev', expect.any(Function));
    expect(source.reads).toEqual([]);
  });

  it('reads git whole once where the recorded timelines do not hold the record, for them to hold it from then on', async () => {
    const source = timelines({ dev: [{ cart: B }, { cart: A }] });
    // The record kept nowhere yet: the recorded timelines read it whole through the callback given.
    const recorded = {
      timeline: jest.fn(async (_product: unknown, _stage: string, readWhole: () => Promise<ReleaseTimeline>) => readWhole()),
    };
    const ages = new DigestAges({ stages: ['dev', 'test'], timelines: source, recorded, cache: mockCache() });
    expect(await ages.judge(product, [{ toStage: 'test', service: 'cart', candidate: B, current: A }], { readHistory: true })).toEqual([
      { age: 'newer' },
    ]);
    expect(recorded.timeline).toHaveBeenCalledWith(product, 'dev', expect.any(Function));
    expect(source.reads).toEqual(['dev']);
  });

  it('reads git from its oldest end where the recorded timelines can keep nothing yet', async () => {
    const source = timelines({ dev: [{ cart: B }, { cart: A }] });
    const recorded = { timeline: jest.fn(async () => undefined) };
    const ages = new DigestAges({ stages: ['dev', 'test'], timelines: source, recorded, cache: mockCache() });
    expect(await ages.judge(product, [{ toStage: 'test', service: 'cart', candidate: B, current: A }], { readHistory: true })).toEqual([
      { age: 'newer' },
    ]);
    expect(source.reads).toEqual(['dev']);
  });
});
