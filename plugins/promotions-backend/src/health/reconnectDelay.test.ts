import { reconnectDelayMs } from './reconnectDelay';

describe('reconnectDelayMs', () => {
  const schedule = { baseMs: 1_000, capMs: 60_000 };
  it.each([
    [0, 0, 500],
    [0, 1, 1_000],
    [1, 0, 1_000],
    [1, 0.5, 1_500],
    [2, 1, 4_000],
    [5, 1, 32_000],
    [6, 1, 60_000],
    [6, 0, 30_000],
    [50, 1, 60_000],
    [1_000, 0, 30_000],
  ])('attempt %d with random %d waits %d ms', (attempt, random, expected) => {
    expect(reconnectDelayMs(attempt, schedule, () => random)).toBe(expected);
  });
});
