import { InMemoryNotificationClaimStore } from './InMemoryNotificationClaimStore';

describe('InMemoryNotificationClaimStore', () => {
  it('grants a key once within the time to live', async () => {
    const claims = new InMemoryNotificationClaimStore(60_000);
    const t0 = new Date('2026-01-01T00:00:00Z');
    expect(await claims.claim('k', t0)).toBe(true);
    expect(await claims.claim('k', new Date(t0.getTime() + 59_999))).toBe(false);
    expect(await claims.claim('k', new Date(t0.getTime() + 60_000))).toBe(true);
  });
});
