/**
 * Where the domain reads the time it decides by (soak times, ages, leases,
 * expiry), so that a test can hold time still or move it on.
 *
 * @public
 */
export interface Clock {
  now(): Date;
}

/**
 * The machine's clock.
 *
 * @public
 */
export const systemClock: Clock = { now: () => new Date() };
