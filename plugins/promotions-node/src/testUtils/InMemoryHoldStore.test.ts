import { InMemoryHoldStore } from './InMemoryHoldStore';
import { ManualClock } from './ManualClock';

const SHOP = { team: 'alpha', product: 'shop' };

describe('InMemoryHoldStore', () => {
  it('keeps the first of two holds on one cell, and lifts it', async () => {
    const clock = new ManualClock('2026-01-01T00:00:00Z');
    const holds = new InMemoryHoldStore({ clock });
    await holds.place(SHOP, { stage: 'uat', service: 'api', reason: 'first', placedBy: 'a' });
    clock.advance({ minutes: 1 });
    expect(await holds.place(SHOP, { stage: 'uat', service: 'api', reason: 'second', placedBy: 'b' })).toMatchObject({
      reason: 'first',
      placedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(await holds.listLive({ team: 'alpha', product: 'other' })).toEqual([]);
    expect(await holds.lift(SHOP, 'uat', 'api', 'c')).toMatchObject({ reason: 'first' });
    expect(await holds.listLive(SHOP)).toEqual([]);
    await expect(holds.lift(SHOP, 'uat', 'api', 'c')).rejects.toThrow('No hold on api in uat');
  });
});
