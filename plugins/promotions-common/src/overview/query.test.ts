import { matchesOverview, overviewCursor, overviewPage, productAfterCursor } from './query';
import type { OverviewCell, OverviewRow } from './types';

const cell = (overrides: Partial<OverviewCell> = {}): OverviewCell => ({
  stage: 'dev',
  verdict: 'healthy',
  matchesBelow: true,
  holds: 0,
  openPromotions: 0,
  awaitingApproval: 0,
  ...overrides,
});

const row = (product: string, owners: string[], cells: OverviewCell[] = [cell()]): OverviewRow => ({
  product,
  team: product.split('/')[0],
  owners,
  cells,
});

describe('matchesOverview', () => {
  const shop = row('alpha/shop', ['group:default/alpha-team'], [cell(), cell({ stage: 'prod', verdict: 'stuck' })]);
  const pay = row('beta/pay', ['group:default/beta-team'], [cell({ openPromotions: 1, awaitingApproval: 1 })]);
  const mine = ['user:default/alice', 'group:default/Alpha-Team'];

  it.each<[string, Parameters<typeof matchesOverview>[1], string[]]>([
    ['no filter', {}, ['alpha/shop', 'beta/pay']],
    ['team', { team: 'beta' }, ['beta/pay']],
    ['unknown team', { team: 'gamma' }, []],
    ['owner', { owner: 'group:default/alpha-team' }, ['alpha/shop']],
    ['owner, in other letter case', { owner: 'group:default/BETA-team' }, ['beta/pay']],
    ['stuck only', { filter: 'stuck' }, ['alpha/shop']],
    ['awaiting approval', { filter: 'awaiting-approval' }, ['beta/pay']],
    ['mine: owned by one of my groups', { filter: 'mine' }, ['alpha/shop']],
    ['all of them at once', { team: 'alpha', owner: 'group:default/alpha-team', filter: 'mine' }, ['alpha/shop']],
    ['filters that exclude each other', { team: 'alpha', filter: 'awaiting-approval' }, []],
  ])('%s', (_, criteria, expected) => {
    expect([shop, pay].filter(r => matchesOverview(r, criteria, mine)).map(r => r.product)).toEqual(expected);
  });

  it('mine is empty for a caller who owns nothing', () => {
    expect(matchesOverview(shop, { filter: 'mine' }, [])).toBe(false);
  });
});

describe('overview paging', () => {
  const rows = ['c/x', 'a/z', 'b/y', 'a/a', 'b/b'].map(p => row(p, []));

  it('walks every row once, in product order, with opaque cursors', () => {
    const seen: string[] = [];
    let after: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = overviewPage(rows, { after, limit: 2 });
      expect(page.total).toBe(5);
      seen.push(...page.rows.map(r => r.product));
      if (!page.nextCursor) break;
      expect(page.nextCursor).not.toContain('/');
      after = productAfterCursor(page.nextCursor);
    }
    expect(seen).toEqual(['a/a', 'a/z', 'b/b', 'b/y', 'c/x']);
  });

  it.each<[string, { after?: string; limit: number }, string[], boolean]>([
    ['first page', { limit: 2 }, ['a/a', 'a/z'], true],
    ['all on one page', { limit: 5 }, ['a/a', 'a/z', 'b/b', 'b/y', 'c/x'], false],
    ['after a Product removed since', { after: 'a/m', limit: 2 }, ['a/z', 'b/b'], true],
    ['last page', { after: 'b/y', limit: 2 }, ['c/x'], false],
    ['past the end', { after: 'z/z', limit: 2 }, [], false],
  ])('%s', (_, page, expected, more) => {
    const result = overviewPage(rows, page);
    expect(result.rows.map(r => r.product)).toEqual(expected);
    expect(result.nextCursor !== undefined).toBe(more);
  });

  it.each([
    ['a cursor it made', overviewCursor('alpha/shop'), 'alpha/shop'],
    ['not base64', '%%%', undefined],
    ['base64 of something else', btoa('hello'), undefined],
    ['an invalid product', btoa('after:../etc'), undefined],
  ])('reads %s', (_, cursor, expected) => {
    expect(productAfterCursor(cursor)).toBe(expected);
  });
});
