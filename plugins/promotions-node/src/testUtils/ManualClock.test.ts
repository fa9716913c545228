import { ManualClock } from './ManualClock';

describe('ManualClock', () => {
  it('stands still until it is moved on or set', () => {
    const clock = new ManualClock('2026-03-01T10:00:00Z');
    expect(clock.now().toISOString()).toBe('2026-03-01T10:00:00.000Z');
    expect(clock.now().toISOString()).toBe('2026-03-01T10:00:00.000Z');
    expect(clock.advance({ hours: 1, minutes: 2, seconds: 3, milliseconds: 4 }).toISOString()).toBe(
      '2026-03-01T11:02:03.004Z',
    );
    clock.set('2026-02-01T00:00:00Z');
    expect(clock.now().toISOString()).toBe('2026-02-01T00:00:00.000Z');
  });

  it('hands out copies, so a caller cannot move it', () => {
    const clock = new ManualClock();
    clock.now().setFullYear(1999);
    expect(clock.now().getUTCFullYear()).toBe(2026);
  });
});
