import useAsync from 'react-use/esm/useAsync';
import { useApi } from '@backstage/core-plugin-api';
import { catalogApiRef } from '@backstage/plugin-catalog-react';
import { Entity } from '@backstage/catalog-model';
import {
  PRODUCT_ANNOTATION,
  ProductRef,
  formatProductRef,
} from '@refplat/plugin-promotions-common';

export interface ProductSystemState {
  /** The System annotated with the Product; undefined when the catalog has none. */
  system?: Entity;
  loading: boolean;
  error?: Error;
}

/**
 * The catalog System that represents a Product (annotated
 * `refplat.org/product: team/product`), as the backend finds its owners.
 */
export function useProductSystem(product: ProductRef | undefined): ProductSystemState {
  const catalogApi = useApi(catalogApiRef);
  const ref = product ? formatProductRef(product) : undefined;
  const { value, loading, error } = useAsync(async () => {
    if (!ref) return undefined;
    const { items } = await catalogApi.getEntities({
      filter: { kind: 'System', [`metadata.annotations.${PRODUCT_ANNOTATION}`]: ref },
      fields: ['kind', 'metadata.name', 'metadata.namespace', 'metadata.title', 'spec.owner'],
    });
    return items[0];
  }, [catalogApi, ref]);
  return { system: value, loading, error };
}
