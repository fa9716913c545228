import { overviewCursor } from '@refplat/plugin-promotions-common';
import { parseOverviewQuery } from './overviewQuery';

describe('parseOverviewQuery', () => {
  it.each<[string, Record<string, unknown>, ReturnType<typeof parseOverviewQuery>]>([
    ['defaults', {}, { criteria: {}, limit: 50 }],
    ['empty values are absent', { team: '', owner: '', filter: '', limit: '' }, { criteria: {}, limit: 50 }],
    ['team and filter', { team: 'alpha', filter: 'stuck' }, { criteria: { team: 'alpha', filter: 'stuck' }, limit: 50 }],
    ['an owner without kind is a group', { owner: 'alpha' }, { criteria: { owner: 'group:default/alpha' }, limit: 50 }],
    ['a full owner ref', { owner: 'user:default/bob' }, { criteria: { owner: 'user:default/bob' }, limit: 50 }],
    ['limit at the maximum', { limit: '200' }, { criteria: {}, limit: 200 }],
    ['a cursor', { cursor: overviewCursor('alpha/shop') }, { criteria: {}, after: 'alpha/shop', limit: 50 }],
  ])('%s', (_, query, expected) => {
    const parsed = parseOverviewQuery(query);
    expect(parsed).toEqual({ ...expected, criteria: { owner: undefined, team: undefined, filter: undefined, ...expected.criteria } });
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['limit 0', { limit: '0' }, /Invalid limit "0": use a whole number from 1 to 200/],
    ['limit over the maximum', { limit: '201' }, /Invalid limit "201"/],
    ['limit not a number', { limit: 'ten' }, /Invalid limit "ten"/],
    ['negative limit', { limit: '-1' }, /Invalid limit/],
    ['unknown filter', { filter: 'broken' }, /Invalid filter "broken": use one of stuck, awaiting-approval, mine/],
    ['bad team', { team: '../x' }, /Invalid team/],
    ['bad cursor', { cursor: 'nope' }, /Invalid cursor "nope"/],
    ['bad owner', { owner: 'group:' }, /Invalid owner/],
    ['a repeated parameter', { team: ['a', 'b'] }, /Give team once/],
  ])('400 for %s', (_, query, message) => {
    expect(() => parseOverviewQuery(query)).toThrow(message);
  });
});
