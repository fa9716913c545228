import { QueueOpening, WriteBudgetNow, queueOpening } from './queueOpening';

const NOW = new Date('2026-12-01T08:00:00.000Z');

describe('queueOpening', () => {
  it.each<[string, WriteBudgetNow | undefined, QueueOpening]>([
    ['no budget configured', undefined, { waitingFor: 'turn' }],
    ['writes left now', { remainingThisMinute: 12, remainingThisHour: 300, nextOpeningInMs: 0 }, { waitingFor: 'turn' }],
    [
      "the minute's writes spent",
      { remainingThisMinute: 0, remainingThisHour: 300, nextOpeningInMs: 20_000 },
      { waitingFor: 'github-minute-write-limit', opensAt: '2026-12-01T08:00:20.000Z' },
    ],
    [
      "the hour's writes spent",
      { remainingThisMinute: 0, remainingThisHour: 0, nextOpeningInMs: 42 * 60_000 },
      { waitingFor: 'github-hourly-write-limit', opensAt: '2026-12-01T08:42:00.000Z' },
    ],
    [
      "the hour's writes spent, the minute's not",
      { remainingThisMinute: 40, remainingThisHour: 0, nextOpeningInMs: 90_000 },
      { waitingFor: 'github-hourly-write-limit', opensAt: '2026-12-01T08:01:30.000Z' },
    ],
  ])('%s: %j', (_case, budget, expected) => {
    expect(queueOpening(budget, NOW)).toEqual(expected);
  });
});
