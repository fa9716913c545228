import useAsync from 'react-use/esm/useAsync';
import { useApi } from '@backstage/core-plugin-api';
import { catalogApiRef, useEntity } from '@backstage/plugin-catalog-react';
import { stringifyEntityRef } from '@backstage/catalog-model';
import {
  PRODUCT_ANNOTATION,
  parseProductRef,
} from '@refplat/plugin-promotions-common';
import { EntityPromotionsTarget, promotionsTargetLookupOf } from '../entity';

export interface PromotionsTargetState {
  /** Absent when the entity names neither a Product nor a Service in a System. */
  target?: EntityPromotionsTarget;
  loading: boolean;
  /** Why the Product could not be taken from the entity's System. */
  error?: Error;
}

/**
 * The current entity's place on a ladder. A Component without its own
 * `refplat.org/product` annotation takes it from the System in `spec.system`.
 */
export function usePromotionsTarget(): PromotionsTargetState {
  const { entity } = useEntity();
  const catalogApi = useApi(catalogApiRef);

  const { value, loading, error } = useAsync(async () => {
    const lookup = promotionsTargetLookupOf(entity);
    if (lookup?.kind !== 'through-system') return lookup?.target;
    const systemRef = stringifyEntityRef(lookup.system);
    const system = await catalogApi.getEntityByRef(lookup.system);
    if (!system) {
      throw new Error(`The System ${systemRef} in spec.system is not in the catalog`);
    }
    const annotation = system.metadata.annotations?.[PRODUCT_ANNOTATION];
    const product = parseProductRef(annotation);
    if (!product) {
      throw new Error(
        annotation === undefined
          ? `The System ${systemRef} has no ${PRODUCT_ANNOTATION} annotation: add it there (team/product), or to this Component`
          : `The System ${systemRef} has a malformed ${PRODUCT_ANNOTATION} annotation ${JSON.stringify(annotation)}: expected team/product`,
      );
    }
    return { product, service: lookup.service };
  }, [entity, catalogApi]);

  return { target: value, loading, error };
}
