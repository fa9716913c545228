import { FreezeWindow, freezeVerdict, freezeWindowProblem, freezesOf } from './freezes';

const window = (schedule: string, timezone = 'Europe/Berlin'): FreezeWindow => ({
  name: 'weekend',
  stages: ['prod'],
  schedule,
  timezone,
  reason: 'nobody on call',
});

describe('freezeVerdict', () => {
  it.each([
    // [case, schedule, timezone, now (UTC), blocked until (UTC) or undefined]
    ['before a weekly window starts', 'Fri 16:00 – Mon 08:00', 'Europe/Berlin', '2026-12-04T14:59:00Z', undefined],
    ['as a weekly window starts', 'Fri 16:00 – Mon 08:00', 'Europe/Berlin', '2026-12-04T15:00:00Z', '2026-12-07T07:00:00.000Z'],
    ['inside it over the weekend', 'Fri 16:00 – Mon 08:00', 'Europe/Berlin', '2026-12-06T12:00:00Z', '2026-12-07T07:00:00.000Z'],
    ['as it ends', 'Fri 16:00 – Mon 08:00', 'Europe/Berlin', '2026-12-07T07:00:00Z', undefined],
    ['mid-week', 'Fri 16:00 – Mon 08:00', 'Europe/Berlin', '2026-12-09T12:00:00Z', undefined],
    ['a same-day window', 'Wed 09:00 – Wed 10:00', 'Europe/Berlin', '2026-12-09T08:30:00Z', '2026-12-09T09:00:00.000Z'],
    // Berlin springs forward on the last Sunday of March (2026-03-29, 02:00 CET → 03:00 CEST):
    // Monday 08:00 is 06:00Z, not 07:00Z.
    ['across spring DST', 'Sat 20:00 – Mon 08:00', 'Europe/Berlin', '2026-03-28T20:00:00Z', '2026-03-30T06:00:00.000Z'],
    ['a window starting in the skipped hour starts when the clock resumes', 'Sun 02:30 – Sun 04:00', 'Europe/Berlin', '2026-03-29T01:45:00Z', '2026-03-29T02:00:00.000Z'],
    ['before a window starting in the skipped hour', 'Sun 02:30 – Sun 04:00', 'Europe/Berlin', '2026-03-29T00:59:00Z', undefined],
    // ...and falls back on the last Sunday of October (2026-10-25, 03:00 CEST → 02:00 CET).
    ['across autumn DST', 'Sat 20:00 – Mon 08:00', 'Europe/Berlin', '2026-10-24T19:00:00Z', '2026-10-26T07:00:00.000Z'],
    ['a weekly window in the hour after fall-back', 'Sun 02:00 – Sun 04:00', 'Europe/Berlin', '2026-10-25T01:30:00Z', '2026-10-25T03:00:00.000Z'],
    ['in another time zone, before', 'Fri 16:00 – Mon 08:00', 'America/New_York', '2026-12-04T20:59:00Z', undefined],
    ['in another time zone, inside', 'Fri 16:00 – Mon 08:00', 'America/New_York', '2026-12-04T21:00:00Z', '2026-12-07T13:00:00.000Z'],
    ['the day before a date range', '2026-12-20 – 2027-01-04', 'Europe/Berlin', '2026-12-19T22:59:00Z', undefined],
    ['the first minute of a date range', '2026-12-20 – 2027-01-04', 'Europe/Berlin', '2026-12-19T23:00:00Z', '2027-01-04T23:00:00.000Z'],
    ['the last minute of a date range', '2026-12-20 – 2027-01-04', 'Europe/Berlin', '2027-01-04T22:59:00Z', '2027-01-04T23:00:00.000Z'],
    ['after a date range', '2026-12-20 – 2027-01-04', 'Europe/Berlin', '2027-01-04T23:00:00Z', undefined],
    ['a date range over a DST change ends in summer time', '2026-03-20 – 2026-04-02', 'Europe/Berlin', '2026-03-30T12:00:00Z', '2026-04-02T22:00:00.000Z'],
    ['a weekly window ending when it starts is on all week', 'Mon 00:00 – Mon 00:00', 'UTC', '2026-12-06T23:59:00Z', '2026-12-07T00:00:00.000Z'],
    ['and on again as the next week starts', 'Mon 00:00 – Mon 00:00', 'UTC', '2026-12-07T00:00:00Z', '2026-12-14T00:00:00.000Z'],
    ['a plain hyphen separates too', 'Fri 16:00 - Mon 08:00', 'UTC', '2026-12-05T00:00:00Z', '2026-12-07T08:00:00.000Z'],
  ])('%s', (_case, schedule, timezone, now, until) => {
    const blockedReason = expect.stringMatching(/^prod is frozen by weekend until .+: nobody on call$/);
    const expected =
      until === undefined
        ? { verdict: 'allow', reason: 'prod is not frozen' }
        : { verdict: 'block', reason: blockedReason, until };
    expect(freezeVerdict([window(schedule, timezone)], 'prod', new Date(now))).toEqual(expected);
  });

  it.each([
    ['Fri 16:00 – Mon 08:00', 'Europe/Berlin', '2026-12-06T12:00:00Z', 'Mon 7 Dec 2026, 08:00 Europe/Berlin'],
    ['Sat 20:00 – Mon 08:00', 'Europe/Berlin', '2026-03-28T20:00:00Z', 'Mon 30 Mar 2026, 08:00 Europe/Berlin'],
    ['Fri 16:00 – Mon 08:00', 'America/New_York', '2026-12-04T21:00:00Z', 'Mon 7 Dec 2026, 08:00 America/New_York'],
    ['2026-12-20 – 2027-01-04', 'Europe/Berlin', '2026-12-26T12:00:00Z', 'Tue 5 Jan 2027, 00:00 Europe/Berlin'],
  ])('people read the end of %s (%s) as wall time in its zone', (schedule, timezone, now, readable) => {
    expect(freezeVerdict([window(schedule, timezone)], 'prod', new Date(now)).reason).toBe(
      `prod is frozen by weekend until ${readable}: nobody on call`,
    );
  });

  it('leaves stages the window does not name alone', () => {
    const verdict = freezeVerdict([window('Fri 16:00 – Mon 08:00')], 'staging', new Date('2026-12-06T12:00:00Z'));
    expect(verdict.verdict).toBe('allow');
  });

  it('names the window that ends last when windows overlap', () => {
    const holidays = { ...window('2026-12-20 – 2027-01-04'), name: 'holidays', reason: 'holidays' };
    const verdict = freezeVerdict([window('Fri 16:00 – Mon 08:00'), holidays], 'prod', new Date('2026-12-26T12:00:00Z'));
    expect(verdict.reason).toMatch(/^prod is frozen by holidays until Tue 5 Jan 2027, 00:00 Europe\/Berlin/);
  });
});

describe('freezeWindowProblem', () => {
  it.each([
    ['Fri 16:00 – Mon 08:00', 'Europe/Berlin', undefined],
    ['2026-12-20 – 2027-01-04', 'UTC', undefined],
    ['Fri 16:00 – Mon 08:00', 'Mars/Olympus', expect.stringMatching(/not an IANA time zone/)],
    ['Fri 16:00', 'UTC', expect.stringMatching(/must be "<start> – <end>"/)],
    ['Friday teatime – Mon 08:00', 'UTC', expect.stringMatching(/neither/)],
    ['2027-01-04 – 2026-12-20', 'UTC', expect.stringMatching(/ends before it starts/)],
  ])('%s in %s', (schedule, timezone, problem) => {
    expect(freezeWindowProblem(window(schedule, timezone))).toEqual(problem);
  });
});

describe('freezesOf', () => {
  const everyProduct = window('Fri 16:00 – Mon 08:00');
  const blogOnly = { ...everyProduct, name: 'blog-launch', products: ['alpha/blog'] };

  it.each([
    ['a window naming no Product freezes every Product', { team: 'beta', product: 'payments' }, ['weekend']],
    ['a window naming Products freezes those', { team: 'alpha', product: 'blog' }, ['weekend', 'blog-launch']],
    ['and no other, of the same team or not', { team: 'alpha', product: 'shop' }, ['weekend']],
  ])('%s', (_case, product, names) => {
    expect(freezesOf([everyProduct, blogOnly], product).map(w => w.name)).toEqual(names);
  });
});
