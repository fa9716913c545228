import { d } from '../__testUtils__/ladders';
import { AutoPromoteContext, soakRemaining } from './decide';
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
