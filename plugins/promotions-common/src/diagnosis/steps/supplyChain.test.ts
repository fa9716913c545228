import { Provenance } from '../../provenance/types';
import { supplyChainFact } from './supplyChain';

describe('supplyChainFact', () => {
  it.each<[string, Pick<Provenance, 'state' | 'reasons'> | undefined, ReturnType<typeof supplyChainFact>]>([
    ['not checked', undefined, undefined],
    ['unknown proves nothing', { state: 'unknown', reasons: ['storefront sha256:0123456789ab: the registry answered 503'] }, undefined],
    [
      'verified: sound',
      { state: 'verified', reasons: [] },
      { verdict: 'sound', text: 'the digest is signed and has SLSA provenance from the provenance workflow (checked in the registry)' },
    ],
    [
      'never pushed: broken, with where to look',
      { state: 'failed', reasons: ["storefront sha256:0123456789ab never reached the registry: it has no manifest there (look at the CI run's push step)"] },
      {
        verdict: 'broken',
        text: "checked in the registry: storefront sha256:0123456789ab never reached the registry: it has no manifest there (look at the CI run's push step)",
      },
    ],
    ['unverified without a reason', { state: 'unverified', reasons: [] }, { verdict: 'broken', text: 'checked in the registry: provenance unverified' }],
  ])('%s', (_case, provenance, expected) => {
    expect(supplyChainFact({ provenance })).toEqual(expected);
  });
});
