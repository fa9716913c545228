import { InMemoryIncidentStore } from './InMemoryIncidentStore';

const SHOP = { team: 'alpha', product: 'shop' };

describe('InMemoryIncidentStore', () => {
  it('opens, updates the link of, resolves and reopens an incident, each change once', async () => {
    const incidents = new InMemoryIncidentStore();
    const t0 = new Date('2026-01-01T00:00:00Z');
    expect(await incidents.open(SHOP, 'INC-1', 'u1', t0)).toBe(true);
    expect(await incidents.open(SHOP, 'INC-1', 'u2', t0)).toBe(false);
    expect(await incidents.listOpen(SHOP)).toEqual([{ id: 'INC-1', url: 'u2', openedAt: t0.toISOString() }]);
    expect(await incidents.resolve(SHOP, 'INC-1', t0)).toBe(true);
    expect(await incidents.resolve(SHOP, 'INC-1', t0)).toBe(false);
    expect(await incidents.open(SHOP, 'INC-1', 'u3', new Date('2026-01-02T00:00:00Z'))).toBe(true);
    expect(await incidents.listOpen(SHOP)).toEqual([{ id: 'INC-1', url: 'u3', openedAt: '2026-01-02T00:00:00.000Z' }]);
  });
});
