import { d, stage } from '../__testUtils__/ladders';
import type { AutoPromoteContext } from './decide';
import { annotateSoak, healthySinceKey, soakRemaining } from './soak';
import { NOW, ago } from './__testUtils__/decideContext';

describe('soakRemaining', () => {
  const key = `dev/storefront/${d('a')}`;
  it.each<[string, Pick<AutoPromoteContext, 'soakSeconds' | 'healthySince'>, number]>([
    ['no soak configured', { soakSeconds: {}, healthySince: {} }, 0],
    ['a zero soak', { soakSeconds: { dev: 0 } , healthySince: {} }, 0],
    ['a soak for another stage only', { soakSeconds: { test: 600 }, healthySince: {} }, 0],
    ['unknown healthySince', { soakSeconds: { dev: 600 }, healthySince: {} }, 600],
    ['an unparseable healthySince', { soakSeconds: { dev: 600 }, healthySince: { [key]: 'yesterday' } }, 600],
    ['healthy for part of the soak', { soakSeconds: { dev: 600 }, healthySince: { [key]: ago(350) } }, 250],
    ['part of a second left rounds up', { soakSeconds: { dev: 600 }, healthySince: { [key]: ago(599.5) } }, 1],
    ['healthy exactly the soak', { soakSeconds: { dev: 600 }, healthySince: { [key]: ago(600) } }, 0],
    ['healthy longer than the soak', { soakSeconds: { dev: 600 }, healthySince: { [key]: ago(86400) } }, 0],
    ['healthySince in the future (clock skew)', { soakSeconds: { dev: 600 }, healthySince: { [key]: ago(-120) } }, 600],
  ])('%s', (_name, ctx, expected) => {
    expect(soakRemaining('dev', 'storefront', d('a'), { ...ctx, now: NOW })).toBe(expected);
  });
});

describe('annotateSoak: the cells read the soak as the auto-promoter decides on it', () => {
  it('puts on each cell since when it is healthy and, where the stage soaks and it is healthy, the soak left', () => {
    const dev = { ...stage('dev', { storefront: { digest: d('a') }, cart: { digest: d('c'), verdict: 'progressing' }, api: {} }), soakSeconds: 600 };
    annotateSoak(dev, { [healthySinceKey('dev', 'storefront', d('a'))]: ago(350) }, NOW);
    expect(dev.services.storefront).toMatchObject({ healthySince: ago(350), soakRemainingSeconds: 250 });
    expect(dev.services.cart.soakRemainingSeconds).toBeUndefined();
    expect(dev.services.api).toMatchObject({ healthySince: undefined });
    expect(dev.services.api.soakRemainingSeconds).toBeUndefined();
  });

  it('counts a healthy-since time in the future (clock skew) as just healthy, never as more than the soak', () => {
    const dev = { ...stage('dev', { storefront: { digest: d('a') } }), soakSeconds: 600 };
    annotateSoak(dev, { [healthySinceKey('dev', 'storefront', d('a'))]: ago(-120) }, NOW);
    expect(dev.services.storefront.soakRemainingSeconds).toBe(600);
  });

  it('says nothing of a soak where the stage has none', () => {
    const test = stage('test', { storefront: { digest: d('a') } });
    annotateSoak(test, {}, NOW);
    expect(test.services.storefront.soakRemainingSeconds).toBeUndefined();
  });
});
