import { SEED_HISTORY, SEED_INITIAL_COMMIT, seedDateAsOf } from './seedData';

describe('seedDateAsOf', () => {
  const now = new Date('2026-12-01T17:30:15.250Z');

  it('ends the seed story a day before now, in whole seconds', () => {
    const last = SEED_HISTORY.map(step => seedDateAsOf(step.date, now)).sort().pop();
    expect(last).toBe('2026-11-30T17:30:15Z');
  });

  it('keeps the spacing between the seed commits', () => {
    const gap = (a: string, b: string) => Date.parse(seedDateAsOf(b, now)) - Date.parse(seedDateAsOf(a, now));
    expect(gap(SEED_INITIAL_COMMIT.date, SEED_HISTORY[0].date)).toBe(60 * 60 * 1000);
    expect(gap(SEED_HISTORY[0].date, SEED_HISTORY[5].date)).toBe(Date.parse(SEED_HISTORY[5].date) - Date.parse(SEED_HISTORY[0].date));
  });
});
