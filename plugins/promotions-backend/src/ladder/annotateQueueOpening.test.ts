import type { Ladder, Promotion } from '@refplat/plugin-promotions-common';
import { annotateQueueOpening } from './annotateQueueOpening';

const NOW = new Date('2026-12-01T08:00:00.000Z');

function ladderWith(...promotions: Array<Partial<Promotion>>): Ladder {
  return { team: 'alpha', product: 'shop', stages: [], promotions } as unknown as Ladder;
}

describe('annotateQueueOpening', () => {
  it('reads no budget for a ladder with nothing queued', () => {
    const budget = jest.fn();
    annotateQueueOpening(ladderWith({ pullRequest: { number: 7, url: 'https://github/pull/7' } }), budget, NOW);
    expect(budget).not.toHaveBeenCalled();
  });

  it("says why a queued promotion's PR is not open yet, and leaves the others alone", () => {
    const queued = { pullRequest: { number: 0, url: '' }, queuedAt: '2026-12-01T07:50:00.000Z' };
    const opened = { pullRequest: { number: 7, url: 'https://github/pull/7' } };
    const ladder = ladderWith(queued, opened);

    annotateQueueOpening(ladder, () => ({ remainingThisMinute: 0, remainingThisHour: 0, nextOpeningInMs: 30 * 60_000 }), NOW);

    expect(ladder.promotions[0].queueOpening).toEqual({ waitingFor: 'github-hourly-write-limit', opensAt: '2026-12-01T08:30:00.000Z' });
    expect(ladder.promotions[1].queueOpening).toBeUndefined();
  });

  it('says a queued promotion opens in its turn when no budget holds it', () => {
    const ladder = ladderWith({ pullRequest: { number: 0, url: '' }, queuedAt: '2026-12-01T07:50:00.000Z' });
    annotateQueueOpening(ladder, () => undefined, NOW);
    expect(ladder.promotions[0].queueOpening).toEqual({ waitingFor: 'turn' });
  });
});
