import type { ProvenanceStore } from '@refplat/plugin-promotions-node';
import { InMemoryProvenanceStore } from './InMemoryProvenanceStore';

describe('InMemoryProvenanceStore', () => {
  it('keeps a result by digest and policy', async () => {
    const store: ProvenanceStore = new InMemoryProvenanceStore();
    const verified = { state: 'verified' as const, sourceCommit: 'c0ffee', reasons: [] };
    await store.put('sha256:a', 'policy-1', verified, new Date());
    expect(await store.get('sha256:a', 'policy-1')).toEqual(verified);
    expect(await store.get('sha256:a', 'policy-2')).toBeUndefined();
    expect(await store.get('sha256:b', 'policy-1')).toBeUndefined();
  });
});
