/** On a System entity: the Product it represents, `team/product`. */
export const PRODUCT_ANNOTATION = 'refplat.org/product';
/** On a Component entity: the Service name used in Release records. */
export const SERVICE_ANNOTATION = 'refplat.org/service';
