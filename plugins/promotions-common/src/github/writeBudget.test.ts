import { writeBudgetWaitMs } from './writeBudget';

const NOW = Date.parse('2026-12-03T12:00:00Z');
const SECOND = 1000;
const MINUTE = 60 * SECOND;
/** Writes `ago` milliseconds before NOW, oldest first. */
const writesAgo = (...ago: number[]) => ago.sort((a, b) => b - a).map(ms => NOW - ms);
/** `count` writes, one every `spacing` ms, the newest `newest` ms ago. */
const evenly = (count: number, spacing: number, newest = 0) =>
  writesAgo(...Array.from({ length: count }, (_, i) => newest + i * spacing));

describe('writeBudgetWaitMs', () => {
  const budget = { perMinute: 3, perHour: 10 };
  it.each<[string, number[], number]>([
    ['no writes yet', [], 0],
    ['under both ceilings', writesAgo(5 * SECOND, 10 * SECOND), 0],
    ['the minute full: until its oldest write is a minute old', writesAgo(10 * SECOND, 20 * SECOND, 30 * SECOND), 30 * SECOND],
    ['the minute full, its oldest leaving this instant', writesAgo(1, 2, MINUTE), 0],
    ['older writes beyond the minute do not fill it', writesAgo(SECOND, 2 * SECOND, 61 * SECOND, 62 * SECOND), 0],
    // writes 1, 6, … 46 min ago: the oldest leaves the hour in 14 min
    ['the hour full: until its oldest write is an hour old', evenly(10, 5 * MINUTE, MINUTE), 14 * MINUTE],
    ['writes over an hour old do not count', [...writesAgo(61 * MINUTE, 62 * MINUTE), ...evenly(9, 5 * MINUTE, MINUTE)].sort((a, b) => a - b), 0],
    [
      'both full: the longer wait',
      [...evenly(7, 5 * MINUTE, 10 * MINUTE), ...writesAgo(SECOND, 2 * SECOND, 3 * SECOND)].sort((a, b) => a - b),
      // the minute frees in 57 s, the hour (its oldest write 40 min ago) in 20 min
      20 * MINUTE,
    ],
  ])('%s', (_name, recent, expected) => {
    expect(writeBudgetWaitMs(recent, budget, NOW)).toBe(expected);
  });

  it('paces a steady stream to the hour ceiling once the hour is full', () => {
    const recent = evenly(500, 7 * SECOND);
    // 500 writes 7 s apart span 58 min 13 s: the oldest leaves the hour 1 min 47 s from now.
    expect(writeBudgetWaitMs(recent, { perMinute: 80, perHour: 500 }, NOW)).toBe(60 * MINUTE - 499 * 7 * SECOND);
  });
});
