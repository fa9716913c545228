import { Ladder } from '@refplat/plugin-promotions-common';
import { InMemoryHealthySinceStore } from './InMemoryHealthySinceStore';

const SHOP = { team: 'alpha', product: 'shop' };

describe('InMemoryHealthySinceStore', () => {
  const ladder = (healthy: boolean, verdict: string, digest = 'd1') =>
    ({
      ...SHOP,
      stages: [{ name: 'dev', services: { api: { digest, healthy, verdict } } }],
    }) as unknown as Ladder;

  it('starts a time when healthy, keeps it while only progressing, ends it on a failure', async () => {
    const store = new InMemoryHealthySinceStore();
    const t0 = new Date('2026-01-01T00:00:00Z');
    expect(await store.observe(ladder(true, 'healthy'), t0)).toEqual({ 'dev/api/d1': t0.toISOString() });
    expect(await store.observe(ladder(false, 'progressing'), new Date('2026-01-01T01:00:00Z'))).toEqual({
      'dev/api/d1': t0.toISOString(),
    });
    expect(await store.observe(ladder(false, 'unhealthy'), t0)).toEqual({});
    expect(await store.read(SHOP)).toEqual({});
    store.set(SHOP, 'dev', 'api', 'd2', '2025-12-31T00:00:00Z');
    expect(await store.read(SHOP)).toEqual({ 'dev/api/d2': '2025-12-31T00:00:00.000Z' });
  });
});
