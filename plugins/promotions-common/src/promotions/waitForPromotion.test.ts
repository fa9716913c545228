import { PromotionWaitTarget, WaitedStageCell } from './waiting';
import { waitForPromotion } from './waitForPromotion';

type Read = { status: string; statusReason?: string; services: Record<string, string> };

const services = { storefront: 'sha256:new' };
const read = (status: string, statusReason?: string): Read => ({ status, statusReason, services });
const cell = (verdict: string, digest = 'sha256:new'): Record<string, WaitedStageCell> => ({ storefront: { digest, verdict } });

/**
 * Waits with scripted reads (the last one repeats) on a fake clock that each
 * sleep moves on, and records what was read and when.
 */
async function waitWith(options: {
  requested: string;
  until: PromotionWaitTarget;
  promotions?: Read[];
  stages?: Array<Record<string, WaitedStageCell>>;
  timeoutMs?: number;
}) {
  let clock = 0;
  const calls: string[] = [];
  const promotions = [...(options.promotions ?? [])];
  const stages = [...(options.stages ?? [])];
  const result = await waitForPromotion({
    requested: read(options.requested),
    until: options.until,
    timeoutMs: options.timeoutMs ?? 10_000,
    pollIntervalMs: 1000,
    readPromotion: async () => {
      calls.push(`promotion at ${clock}`);
      return promotions.length > 1 ? promotions.shift()! : promotions[0];
    },
    readStageCells: async () => {
      calls.push(`stage at ${clock}`);
      return stages.length > 1 ? stages.shift()! : stages[0];
    },
    sleep: async ms => {
      clock += ms;
    },
    now: () => clock,
  });
  return { ...result, calls };
}

describe('waitForPromotion', () => {
  it.each<[string, Parameters<typeof waitWith>[0], string, string, string[]]>([
    ['merged on the request already', { requested: 'merged', until: 'merged' }, 'reached', 'merged', []],
    [
      'merged after two more reads',
      { requested: 'open', until: 'merged', promotions: [read('approved'), read('merged')] },
      'reached',
      'merged',
      ['promotion at 1000', 'promotion at 2000'],
    ],
    [
      'healthy once the stage runs the promoted digest healthy',
      { requested: 'merged', until: 'healthy', promotions: [read('merged')], stages: [cell('progressing'), cell('healthy')] },
      'reached',
      'merged',
      ['stage at 0', 'promotion at 1000', 'stage at 1000'],
    ],
    [
      'the stage is read only once the promotion is merged',
      { requested: 'open', until: 'healthy', promotions: [read('merged')], stages: [cell('healthy')] },
      'reached',
      'merged',
      ['promotion at 1000', 'stage at 1000'],
    ],
    [
      'closed while waiting',
      { requested: 'open', until: 'merged', promotions: [read('closed', 'superseded')] },
      'ended',
      'closed',
      ['promotion at 1000'],
    ],
    [
      'failed while waiting until healthy, without reading the stage',
      { requested: 'approved', until: 'healthy', promotions: [read('failed', 'merge conflict')] },
      'ended',
      'failed',
      ['promotion at 1000'],
    ],
    [
      'still awaiting approval when the timeout passes',
      { requested: 'awaiting-approval', until: 'merged', promotions: [read('awaiting-approval')], timeoutMs: 2500 },
      'timed-out',
      'awaiting-approval',
      ['promotion at 1000', 'promotion at 2000', 'promotion at 3000'],
    ],
    [
      'merged but healthy on the old digest when the timeout passes',
      { requested: 'merged', until: 'healthy', promotions: [read('merged')], stages: [cell('healthy', 'sha256:old')], timeoutMs: 500 },
      'timed-out',
      'merged',
      ['stage at 0', 'promotion at 1000', 'stage at 1000'],
    ],
  ])('%s', async (_name, options, outcome, status, calls) => {
    const result = await waitWith(options);
    expect(result.outcome).toBe(outcome);
    expect(result.promotion.status).toBe(status);
    expect(result.calls).toEqual(calls);
  });

  it('answers the promotion as last read, with the reason it ended', async () => {
    const result = await waitWith({ requested: 'open', until: 'merged', promotions: [read('closed', 'superseded by a newer promotion')] });
    expect(result.promotion).toEqual(read('closed', 'superseded by a newer promotion'));
  });

  /** A wait on an open promotion that would merge on the first read, for the tests that stop it first. */
  const mergesOnFirstRead = {
    requested: read('open'),
    until: 'merged' as const,
    timeoutMs: 10_000,
    pollIntervalMs: 1000,
    readPromotion: async () => read('merged'),
    readStageCells: async () => ({}),
    sleep: async () => undefined,
    now: () => 0,
  };

  it('stops at the first failed read: a read error is not retried', async () => {
    let reads = 0;
    const wait = waitForPromotion({
      ...mergesOnFirstRead,
      readPromotion: async () => {
        reads += 1;
        if (reads === 1) throw new Error('503: unavailable');
        return read('merged');
      },
    });
    await expect(wait).rejects.toThrow('503: unavailable');
    expect(reads).toBe(1);
  });

  it('stops when the sleep rejects, as a cancelled task does', async () => {
    const cancelled = new Error('cancelled');
    await expect(waitForPromotion({ ...mergesOnFirstRead, sleep: () => Promise.reject(cancelled) })).rejects.toBe(cancelled);
  });
});
