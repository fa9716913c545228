import type { Clock } from '@refplat/plugin-promotions-node';

/**
 * A clock that stands still until the test moves it: soak times, leases and
 * grace periods pass in an instant, and never by accident.
 *
 * @public
 */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  /** Moves the clock on by this much. */
  advance(by: { milliseconds?: number; seconds?: number; minutes?: number; hours?: number }): Date {
    const { milliseconds = 0, seconds = 0, minutes = 0, hours = 0 } = by;
    this.current += milliseconds + 1000 * (seconds + 60 * (minutes + 60 * hours));
    return this.now();
  }

  /** Sets the clock to this time (it may go back, as a clock can). */
  set(time: Date | string): void {
    this.current = new Date(time).getTime();
  }
}
