import type { Ladder, LadderServiceCell } from '@refplat/plugin-promotions-common';
import { ProvenanceService } from './ProvenanceService';
import { annotateProvenance } from './annotateProvenance';

const DIGEST = `sha256:${'a'.repeat(64)}`;

/** alpha/shop with dev naming storefront's digest and none for cart. */
const ladder = () =>
  ({
    team: 'alpha',
    product: 'shop',
    stages: [{ name: 'dev', services: { storefront: { digest: DIGEST }, cart: {} } }],
  }) as unknown as Ladder;

describe('annotateProvenance', () => {
  it("puts each released digest's provenance on its cell, and none where nothing is released", async () => {
    const annotated = ladder();
    const provenanceForView = jest.fn(async () => ({ state: 'verified' as const, sourceCommit: 'c0ffee', reasons: [] }));
    await annotateProvenance(annotated, { provenanceForView } as unknown as ProvenanceService);
    const cells = annotated.stages[0].services as Record<string, LadderServiceCell>;
    expect(cells.storefront.provenance).toEqual({ state: 'verified', sourceCommit: 'c0ffee', reasons: [] });
    expect(cells.cart.provenance).toBeUndefined();
    // The view's way: it does not wait on the registry.
    expect(provenanceForView).toHaveBeenCalledTimes(1);
    expect(provenanceForView).toHaveBeenCalledWith({ team: 'alpha', product: 'shop', service: 'storefront' }, DIGEST);
  });
});
