import { SEED_HISTORY, SEED_INITIAL_COMMIT, seedDateAsOf, seedStory } from './seedData';

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

describe('seedStory', () => {
  /** "<stage> <service> v<n>" for a Product's last version of each service per stage (v1 where never bumped). */
  const endState = (history: ReturnType<typeof seedStory>['history'], product: string) => {
    const versions = new Map<string, number>();
    for (const bump of history.flatMap(step => step.bumps).filter(b => `${b.team}/${b.product}` === product)) {
      versions.set(`${bump.stage} ${bump.service}`, bump.version);
    }
    return Object.fromEntries(versions);
  };

  it('keeps the demo Products out of the plain seed, which tests count on', () => {
    const { products, history } = seedStory(false);
    expect(products.map(p => `${p.team}/${p.product}`)).toEqual(['alpha/shop', 'beta/payments']);
    expect(history).toBe(SEED_HISTORY);
  });

  it('adds alpha/blog with a newer digest waiting below every rung, the history in date order', () => {
    const { products, history } = seedStory(true);
    expect(products.map(p => `${p.team}/${p.product}`)).toEqual(['alpha/shop', 'beta/payments', 'alpha/blog']);
    expect(endState(history, 'alpha/blog')).toEqual({
      'dev web': 4,
      'dev comments': 2,
      'test web': 3,
      'test comments': 2,
      'uat web': 3,
      'staging web': 2,
    });
    const dates = history.map(step => step.date);
    expect(dates).toEqual([...dates].sort());
    expect(endState(history, 'alpha/shop')).toEqual(endState(SEED_HISTORY, 'alpha/shop'));
  });
});
