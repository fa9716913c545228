import { Entity } from '@backstage/catalog-model';
import { PromotionsTargetLookup, isPromotionsAvailable, promotionsTargetLookupOf } from './entity';

function entity(
  kind: string,
  annotations: Record<string, string>,
  spec: Entity['spec'] = {},
  namespace?: string,
): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind,
    metadata: { name: 'x', ...(namespace ? { namespace } : {}), annotations },
    spec,
  };
}

const shop = { team: 'alpha', product: 'shop' };
const shopSystem = { kind: 'System', namespace: 'default', name: 'shop' };

describe('promotionsTargetLookupOf and isPromotionsAvailable', () => {
  it.each<[string, Entity, PromotionsTargetLookup | undefined]>([
    ['a System naming its Product', entity('System', { 'refplat.org/product': 'alpha/shop' }), { kind: 'direct', target: { product: shop, service: undefined } }],
    [
      'a Component naming Product and Service',
      entity('Component', { 'refplat.org/product': ' alpha/shop ', 'refplat.org/service': ' storefront ' }, { system: 'other' }),
      { kind: 'direct', target: { product: shop, service: 'storefront' } },
    ],
    [
      'a Component naming only its Service, in a System',
      entity('Component', { 'refplat.org/service': 'storefront' }, { system: 'shop' }),
      { kind: 'through-system', service: 'storefront', system: shopSystem },
    ],
    [
      'a Component whose System is a full entity ref',
      entity('Component', { 'refplat.org/service': 'storefront' }, { system: 'system:retail/shop' }),
      { kind: 'through-system', service: 'storefront', system: { kind: 'system', namespace: 'retail', name: 'shop' } },
    ],
    [
      "a Component in a namespace: its System defaults to that namespace",
      entity('Component', { 'refplat.org/service': 'storefront' }, { system: 'shop' }, 'retail'),
      { kind: 'through-system', service: 'storefront', system: { ...shopSystem, namespace: 'retail' } },
    ],
    ['a Component naming its Service outside any System', entity('Component', { 'refplat.org/service': 'storefront' }), undefined],
    ['a Component whose spec.system is not a System', entity('Component', { 'refplat.org/service': 'storefront' }, { system: 'group:default/alpha' }), undefined],
    ['a Component whose spec.system is blank', entity('Component', { 'refplat.org/service': 'storefront' }, { system: ' ' }), undefined],
    ['a Component in a System without a Service', entity('Component', {}, { system: 'shop' }), undefined],
    ['a Component with a blank Service', entity('Component', { 'refplat.org/service': ' ' }, { system: 'shop' }), undefined],
    [
      'a malformed Product, even with a System to fall back on',
      entity('Component', { 'refplat.org/product': 'shop', 'refplat.org/service': 'storefront' }, { system: 'shop' }),
      undefined,
    ],
    ['an entity without annotations', { apiVersion: 'backstage.io/v1alpha1', kind: 'System', metadata: { name: 'x' } }, undefined],
  ])('%s', (_name, input, expected) => {
    expect(promotionsTargetLookupOf(input)).toEqual(expected);
    expect(isPromotionsAvailable(input)).toBe(expected !== undefined);
  });
});
