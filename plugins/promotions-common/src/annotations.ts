/**
 * On a System entity: the Product it represents, `team/product`.
 *
 * @public
 */
export const PRODUCT_ANNOTATION = 'refplat.org/product';
/**
 * On a Component entity: the Service name used in Release records.
 *
 * @public
 */
export const SERVICE_ANNOTATION = 'refplat.org/service';
