import type { FilterPredicate } from '@backstage/filter-predicates';

// Declarative filter predicates rather than functions, so an app can
// override them in app-config (`app.extensions`) like any other card's.
// The paths name PRODUCT_ANNOTATION and SERVICE_ANNOTATION (filters.test.ts
// checks they still match them).

/**
 * A System that names its Product: where the promotion ladder card and the
 * Promotions tab appear.
 */
export const productSystemFilter: FilterPredicate = {
  kind: 'system',
  'metadata.annotations.refplat.org/product': { $exists: true },
};

/**
 * A Component that names its Product, or its Service and its System (as
 * `isPromotionsAvailable` decides for the legacy `EntitySwitch`).
 */
export const serviceComponentFilter: FilterPredicate = {
  $all: [
    { kind: 'component' },
    {
      $any: [
        { 'metadata.annotations.refplat.org/product': { $exists: true } },
        {
          'metadata.annotations.refplat.org/service': { $exists: true },
          'spec.system': { $exists: true },
        },
      ],
    },
  ],
};
