import { Entity } from '@backstage/catalog-model';
import { evaluateFilterPredicate } from '@backstage/filter-predicates';
import {
  PRODUCT_ANNOTATION,
  SERVICE_ANNOTATION,
} from '@refplat/plugin-promotions-common';
import { isPromotionsAvailable } from '../entity';
import { productSystemFilter, serviceComponentFilter } from './filters';

function entity(
  kind: string,
  annotations: Record<string, string>,
  spec: Record<string, string> = {},
): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind,
    metadata: { name: 'x', namespace: 'default', annotations },
    spec,
  };
}

const product = { [PRODUCT_ANNOTATION]: 'alpha/shop' };
const service = { [SERVICE_ANNOTATION]: 'storefront' };

describe('the new frontend system filters', () => {
  it.each([
    ['a System naming its Product', true, entity('System', product)],
    ['a System without the annotation', false, entity('System', {})],
    ['a Component naming its Product', false, entity('Component', product)],
    [
      'another annotation only',
      false,
      entity('System', { 'backstage.io/techdocs-ref': 'dir:.' }),
    ],
  ])('ladder card and tab: %s → %s', (_, shown, e) => {
    expect(evaluateFilterPredicate(productSystemFilter, e)).toBe(shown);
  });

  it.each([
    [
      'Service and System',
      true,
      entity('Component', service, { system: 'shop' }),
    ],
    [
      'Product named directly',
      true,
      entity('Component', { ...product, ...service }),
    ],
    ['Service without a System', false, entity('Component', service)],
    ['no annotation', false, entity('Component', {}, { system: 'shop' })],
    ['a System', false, entity('System', product)],
  ])('service card on a Component: %s → %s', (_, shown, e) => {
    expect(evaluateFilterPredicate(serviceComponentFilter, e)).toBe(shown);
  });

  it.each([
    entity('Component', service, { system: 'shop' }),
    entity('Component', { ...product, ...service }),
    entity('Component', service),
    entity('Component', {}, { system: 'shop' }),
  ])('agrees with isPromotionsAvailable on Components (%#)', e => {
    expect(evaluateFilterPredicate(serviceComponentFilter, e)).toBe(
      isPromotionsAvailable(e),
    );
  });
});
