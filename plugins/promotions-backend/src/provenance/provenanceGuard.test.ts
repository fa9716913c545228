import { Provenance, ProvenanceRequirement } from '@refplat/plugin-promotions-common';
import { ProvenanceService } from './ProvenanceService';
import { provenanceGuard } from './provenanceGuard';

const promotion = {
  team: 'alpha',
  product: 'shop',
  kind: 'promotion' as const,
  fromStage: 'staging',
  toStage: 'prod',
  services: { storefront: 'sha256:aaa', cart: 'sha256:bbb' },
  requestedBy: 'user:default/bob',
};
const context = { phase: 'request' as const, now: new Date() };

function serviceAnswering(byService: Record<string, Provenance>) {
  const provenanceOf = jest.fn(async ({ service }: { service: string }, _digest: string, _options?: { fresh?: boolean }) => byService[service]);
  return { service: { provenanceOf } as unknown as ProvenanceService, provenanceOf };
}

describe('provenanceGuard', () => {
  const enforce: ProvenanceRequirement = { mode: 'enforce', stages: ['prod'] };

  it('blocks a digest that is not verified, naming the failed check, and asks about each digest carried', async () => {
    const { service, provenanceOf } = serviceAnswering({
      storefront: { state: 'verified', reasons: [] },
      cart: { state: 'unverified', reasons: ['cart sha256:bbb has no SLSA provenance from the provenance workflow'] },
    });
    expect(await provenanceGuard(enforce, service).evaluate(promotion, context)).toEqual({
      verdict: 'block',
      reason: 'cart sha256:bbb has no SLSA provenance from the provenance workflow',
      overridable: false,
    });
    expect(provenanceOf.mock.calls).toEqual([
      [{ team: 'alpha', product: 'shop', service: 'storefront' }, 'sha256:aaa', { fresh: false }],
      [{ team: 'alpha', product: 'shop', service: 'cart' }, 'sha256:bbb', { fresh: false }],
    ]);
  });

  it('asks afresh when the Gate is about to merge', async () => {
    const { service, provenanceOf } = serviceAnswering({
      storefront: { state: 'verified', reasons: [] },
      cart: { state: 'verified', reasons: [] },
    });
    await provenanceGuard(enforce, service).evaluate(promotion, { phase: 'gate', now: new Date(), beforeMerge: true });
    expect(provenanceOf.mock.calls.map(([, , options]) => options)).toEqual([{ fresh: true }, { fresh: true }]);
  });

  it('asks the registry nothing for a stage that does not require provenance', async () => {
    const { service, provenanceOf } = serviceAnswering({});
    const verdict = await provenanceGuard({ mode: 'enforce', stages: ['staging'] }, service).evaluate(promotion, context);
    expect(verdict).toEqual({ verdict: 'allow', reason: 'prod does not require provenance' });
    expect(provenanceOf).not.toHaveBeenCalled();
  });

  it('asks the registry nothing for a Product provenance does not check', async () => {
    const { service, provenanceOf } = serviceAnswering({});
    const verdict = await provenanceGuard({ ...enforce, products: ['beta/payments'] }, service).evaluate(promotion, context);
    expect(verdict).toEqual({ verdict: 'allow', reason: 'Provenance is not checked for alpha/shop' });
    expect(provenanceOf).not.toHaveBeenCalled();
  });
});
