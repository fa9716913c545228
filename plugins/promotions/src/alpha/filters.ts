import {
  PRODUCT_ANNOTATION,
  SERVICE_ANNOTATION,
} from '@refplat/plugin-promotions-common';

// Declarative filter predicates rather than functions, so an app can
// override them in app-config (`app.extensions`) like any other card's.

const hasAnnotation = (annotation: string) => ({
  [`metadata.annotations.${annotation}`]: { $exists: true },
});

/**
 * A System that names its Product: where the promotion ladder card and the
 * Promotions tab appear.
 */
export const productSystemFilter = {
  $all: [{ kind: 'system' }, hasAnnotation(PRODUCT_ANNOTATION)],
};

/**
 * A Component that names its Product, or its Service and its System (as
 * `isPromotionsAvailable` decides for the legacy `EntitySwitch`).
 */
export const serviceComponentFilter = {
  $all: [
    { kind: 'component' },
    {
      $any: [
        hasAnnotation(PRODUCT_ANNOTATION),
        { $all: [hasAnnotation(SERVICE_ANNOTATION), { 'spec.system': { $exists: true } }] },
      ],
    },
  ],
};
