import { checksProvenanceOf, provenanceGuardVerdict } from './guardVerdict';
import { Provenance, ProvenanceMode } from './types';

const VERIFIED: Provenance = { state: 'verified', reasons: [] };
const UNSIGNED: Provenance = { state: 'unverified', reasons: ['cart sha256:bbb is not signed'] };
const UNKNOWN: Provenance = { state: 'unknown', reasons: [] };

const promotion = { team: 'alpha', product: 'shop', toStage: 'prod', services: { storefront: 'sha256:aaa', cart: 'sha256:bbb' } };

describe('provenanceGuardVerdict', () => {
  it.each<[string, ProvenanceMode, string[], Record<string, Provenance>, object]>([
    ['off: nothing is checked', 'off', ['prod'], { storefront: UNSIGNED, cart: UNSIGNED }, { verdict: 'allow', reason: 'Provenance is not checked' }],
    ['a stage that does not require it', 'enforce', ['staging'], { storefront: UNSIGNED, cart: UNSIGNED }, { verdict: 'allow', reason: 'prod does not require provenance' }],
    ['enforce, all verified', 'enforce', ['prod'], { storefront: VERIFIED, cart: VERIFIED }, { verdict: 'allow', reason: 'Every digest is signed and has SLSA provenance' }],
    ['enforce, one unsigned: blocked with its reason', 'enforce', ['prod'], { storefront: VERIFIED, cart: UNSIGNED }, { verdict: 'block', reason: 'cart sha256:bbb is not signed', overridable: false }],
    ['enforce, unknown is refused, never taken for verified', 'enforce', ['prod'], { storefront: UNKNOWN, cart: VERIFIED }, { verdict: 'block', reason: 'storefront sha256:aaa: provenance unknown', overridable: false }],
    ['warn lets it through and says why', 'warn', ['prod'], { storefront: VERIFIED, cart: UNSIGNED }, { verdict: 'allow', reason: 'Let through (provenance mode warn): cart sha256:bbb is not signed' }],
    [
      'every problem is named',
      'enforce',
      ['prod'],
      { storefront: UNKNOWN, cart: UNSIGNED },
      { verdict: 'block', reason: 'storefront sha256:aaa: provenance unknown; cart sha256:bbb is not signed', overridable: false },
    ],
  ])('%s', (_case, mode, stages, provenance, expected) => {
    expect(provenanceGuardVerdict({ mode, stages }, promotion, service => provenance[service])).toEqual(expected);
  });
});

it("lets an override lift enforce's refusal only where promotions.provenance.overridable says so (break-glass)", () => {
  const refusal = (overridable?: boolean) =>
    provenanceGuardVerdict({ mode: 'enforce', stages: ['prod'], overridable }, promotion, service => (service === 'cart' ? UNSIGNED : VERIFIED));
  expect(refusal()).toMatchObject({ verdict: 'block', overridable: false });
  expect(refusal(false)).toMatchObject({ verdict: 'block', overridable: false });
  expect(refusal(true)).toEqual({ verdict: 'block', reason: 'cart sha256:bbb is not signed' });
});

describe('provenance for some Products only (promotions.provenance.products)', () => {
  const shop = { team: 'alpha', product: 'shop' };
  it.each<[string, ProvenanceMode, string[] | undefined, boolean]>([
    ['every Product when none are named', 'enforce', undefined, true],
    ['a Product named', 'warn', ['beta/payments', 'alpha/shop'], true],
    ['a Product not named', 'enforce', ['beta/payments'], false],
    ['none when off', 'off', undefined, false],
  ])('%s', (_case, mode, products, checked) => {
    expect(checksProvenanceOf({ mode, products }, shop)).toBe(checked);
  });

  it('lets a Product not named through, unread', () => {
    const unread = () => {
      throw new Error('read');
    };
    expect(provenanceGuardVerdict({ mode: 'enforce', stages: ['prod'], products: ['beta/payments'] }, promotion, unread)).toEqual({
      verdict: 'allow',
      reason: 'Provenance is not checked for alpha/shop',
    });
  });
});
