import useAsync from 'react-use/esm/useAsync';
import { useApi } from '@backstage/core-plugin-api';
import { catalogApiRef, useEntity } from '@backstage/plugin-catalog-react';
import {
  PRODUCT_ANNOTATION,
  parseProductRef,
} from '@refplat/plugin-promotions-common';
import { EntityPromotionsTarget, promotionsTargetOf } from '../entity';

export interface PromotionsTargetState {
  target?: EntityPromotionsTarget;
  loading: boolean;
  error?: Error;
}

/**
 * The current entity's place on a ladder. A Component without its own
 * `refplat.org/product` annotation inherits it from its System.
 */
export function usePromotionsTarget(): PromotionsTargetState {
  const { entity } = useEntity();
  const catalogApi = useApi(catalogApiRef);

  const { value, loading, error } = useAsync(async () => {
    const direct = promotionsTargetOf(entity);
    if (direct) return direct;
    const service = entity.metadata.annotations?.['refplat.org/service'];
    const system = (entity.spec as { system?: string } | undefined)?.system;
    if (!service || !system) return undefined;
    const systemEntity = await catalogApi.getEntityByRef({
      kind: 'System',
      namespace: entity.metadata.namespace ?? 'default',
      name: system,
    });
    const product = parseProductRef(
      systemEntity?.metadata.annotations?.[PRODUCT_ANNOTATION],
    );
    return product ? { product, service: service.trim() } : undefined;
  }, [entity, catalogApi]);

  return { target: value, loading, error };
}
