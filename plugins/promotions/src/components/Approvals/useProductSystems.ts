import useAsync from 'react-use/esm/useAsync';
import { useApi } from '@backstage/core-plugin-api';
import { Entity } from '@backstage/catalog-model';
import { catalogApiRef } from '@backstage/plugin-catalog-react';
import { PRODUCT_ANNOTATION } from '@refplat/plugin-promotions-common';

/**
 * The catalog Systems of several Products (`team/product` → System), in one
 * catalog request; a Product without a System, or a catalog that cannot be
 * read, simply has no entry.
 */
export function useProductSystems(productRefs: string[]): Map<string, Entity> {
  const catalogApi = useApi(catalogApiRef);
  const key = [...new Set(productRefs)].sort().join(',');
  const { value } = useAsync(async () => {
    if (!key) return new Map<string, Entity>();
    const { items } = await catalogApi.getEntities({
      filter: { kind: 'System', [`metadata.annotations.${PRODUCT_ANNOTATION}`]: key.split(',') },
      fields: ['kind', 'metadata.name', 'metadata.namespace', 'metadata.title', 'metadata.annotations'],
    });
    return new Map(
      items.flatMap(entity => {
        const ref = entity.metadata.annotations?.[PRODUCT_ANNOTATION];
        return ref ? [[ref, entity] as const] : [];
      }),
    );
  }, [catalogApi, key]);
  return value ?? new Map();
}
