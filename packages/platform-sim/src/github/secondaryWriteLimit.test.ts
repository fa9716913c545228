import { SecondaryWriteLimit } from './secondaryWriteLimit';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

describe('SecondaryWriteLimit', () => {
  it('admits writes up to the per-minute ceiling, then answers the seconds until the oldest leaves the minute', () => {
    const limit = new SecondaryWriteLimit({ perMinute: 3, perHour: 100 });
    expect([0, 1, 2].map(s => limit.admit('bot', s * SECOND))).toEqual([undefined, undefined, undefined]);
    expect(limit.admit('bot', 10 * SECOND)).toBe(50);
    expect(limit.admit('bot', 59.5 * SECOND)).toBe(1);
    expect(limit.admit('bot', MINUTE + 1)).toBeUndefined();
  });

  it('does not count a refused write', () => {
    const limit = new SecondaryWriteLimit({ perMinute: 1, perHour: 100 });
    limit.admit('bot', 0);
    for (let s = 1; s < 60; s++) expect(limit.admit('bot', s * SECOND)).toBeGreaterThan(0);
    expect(limit.admit('bot', MINUTE)).toBeUndefined();
  });

  it('holds the hour ceiling across minutes, in a sliding window', () => {
    const limit = new SecondaryWriteLimit({ perMinute: 80, perHour: 5 });
    for (let m = 0; m < 5; m++) expect(limit.admit('bot', m * 10 * MINUTE)).toBeUndefined();
    // The fifth write is 40 minutes old at 50 min; the first leaves the hour at 60 min.
    expect(limit.admit('bot', 50 * MINUTE)).toBe(10 * 60);
    expect(limit.admit('bot', 60 * MINUTE + 1)).toBeUndefined();
    expect(limit.admit('bot', 61 * MINUTE)).toBe(9 * 60);
  });

  it('keeps each identity apart', () => {
    const limit = new SecondaryWriteLimit({ perMinute: 1, perHour: 1 });
    expect(limit.admit('bot', 0)).toBeUndefined();
    expect(limit.admit('alice', 0)).toBeUndefined();
    expect(limit.admit('bot', SECOND)).toBeGreaterThan(0);
  });
});
