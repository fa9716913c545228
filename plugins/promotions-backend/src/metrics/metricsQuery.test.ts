import { parseMetricsQuery } from './metricsQuery';

const NOW = new Date('2026-12-01T10:00:00.000Z');

describe('parseMetricsQuery', () => {
  it.each([
    ['a Product', { scope: 'product:alpha/shop', from: '2026-11-02', to: '2026-11-16' }, { scope: { kind: 'product', product: { team: 'alpha', product: 'shop' } }, from: '2026-11-02T00:00:00.000Z', to: '2026-11-16T00:00:00.000Z' }],
    ['a team, times with zones', { scope: 'team:alpha', from: '2026-11-02T09:00:00+02:00', to: '2026-11-03T00:00Z' }, { scope: { kind: 'team', team: 'alpha' }, from: '2026-11-02T07:00:00.000Z', to: '2026-11-03T00:00:00.000Z' }],
    ['the organisation, 4 weeks up to now by default', { scope: 'org' }, { scope: { kind: 'org' }, from: '2026-11-03T10:00:00.000Z', to: '2026-12-01T10:00:00.000Z' }],
  ])('%s', (_name, query, expected) => {
    const parsed = parseMetricsQuery(query, NOW);
    expect({ ...parsed, from: parsed.from.toISOString(), to: parsed.to.toISOString() }).toEqual(expected);
  });

  it.each([
    ['no scope', {}, /Missing scope: use scope=org, scope=team:<team> or scope=product:<team>\/<product>/],
    ['an unknown scope kind', { scope: 'group:alpha' }, /Invalid scope "group:alpha"/],
    ['a Product without its team', { scope: 'product:shop' }, /Invalid scope "product:shop"/],
    ['a bad team name', { scope: 'team:Alpha' }, /Invalid scope "team:Alpha"/],
    ['a date that is not ISO', { scope: 'org', from: '11/02/2026' }, /Invalid from "11\/02\/2026": use an ISO 8601 date/],
    ['a day that does not exist', { scope: 'org', to: '2026-02-30' }, /Invalid to "2026-02-30"/],
    ['a repeated parameter', { scope: 'org', from: ['2026-11-01', '2026-11-02'] }, /Invalid from a list/],
    ['from after to', { scope: 'org', from: '2026-11-16', to: '2026-11-02' }, /from \(2026-11-16T00:00:00.000Z\) must be before to \(2026-11-02T00:00:00.000Z\)/],
  ])('400 for %s', (_name, query, message) => {
    expect(() => parseMetricsQuery(query, NOW)).toThrow(message);
  });
});
