/** How a lost Application stream is retried: doubling from `baseMs`, at most `capMs`. */
export const RECONNECT = { baseMs: 1_000, capMs: 60_000 };

/**
 * The wait before reconnect attempt `attempt` (0 for the first after a loss):
 * exponential up to the cap, then "equal jitter" — half fixed, half random — so
 * replicas that lost the same server do not all come back at the same instant,
 * yet none retries sooner than half the schedule.
 */
export function reconnectDelayMs(
  attempt: number,
  schedule: { baseMs: number; capMs: number } = RECONNECT,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(schedule.capMs, schedule.baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
