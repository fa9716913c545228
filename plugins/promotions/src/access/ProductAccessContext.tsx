import { ReactNode, createContext, useContext, useMemo } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { configApiRef, identityApiRef, useApi } from '@backstage/core-plugin-api';
import { parseEntityRef, stringifyEntityRef } from '@backstage/catalog-model';
import { ProductRef } from '@refplat/plugin-promotions-common';
import { useProductSystem } from '../hooks/useProductSystem';
import { ProductViewer } from './productChangeAccess';

/** The viewer once known; undefined while identity is still loading. */
export interface ProductAccessState {
  viewer?: ProductViewer;
}

const ProductAccessContext = createContext<ProductAccessState | undefined>(undefined);

/** The System's `spec.owner` as a full ref, as the backend compares it. */
function ownerRefs(owner: unknown, namespace: string | undefined): string[] {
  if (typeof owner !== 'string' || !owner.trim()) return [];
  try {
    return [
      stringifyEntityRef(
        parseEntityRef(owner.trim(), { defaultKind: 'group', defaultNamespace: namespace ?? 'default' }),
      ),
    ];
  } catch {
    return [];
  }
}

/**
 * Finds out once per card who is looking (identity), who owns the Product
 * (the catalog's System) and the rules that apply (config), for every button
 * of the card to decide what it offers.
 */
export const ProductAccessProvider = (props: {
  product: ProductRef;
  /** `promotions.approval.approvers`, as the ladder reports them. */
  approvers: string[];
  children: ReactNode;
}) => {
  const identityApi = useApi(identityApiRef);
  const configApi = useApi(configApiRef);
  const identity = useAsync(() => identityApi.getBackstageIdentity(), [identityApi]);
  const { system, loading: systemLoading, error: systemError } = useProductSystem(props.product);
  const approverKey = props.approvers.join(',');

  const state = useMemo<ProductAccessState>(() => {
    if (!identity.value || systemLoading) return {};
    const { userEntityRef, ownershipEntityRefs } = identity.value;
    return {
      viewer: {
        userEntityRef,
        claims: [userEntityRef, ...ownershipEntityRefs],
        // A catalog that cannot be read: the rule refuses rather than guesses, as the backend does.
        owners: systemError
          ? undefined
          : ownerRefs(system?.spec?.owner, system?.metadata.namespace),
        approvers: approverKey ? approverKey.split(',') : [],
        requireOwnership:
          configApi.getOptionalBoolean('promotions.permissions.requireOwnership') ?? true,
        requireDistinctApprover:
          configApi.getOptionalBoolean('promotions.approval.requireDistinctApprover') ?? true,
      },
    };
  }, [identity.value, system, systemLoading, systemError, approverKey, configApi]);

  return <ProductAccessContext.Provider value={state}>{props.children}</ProductAccessContext.Provider>;
};

/** Test and story support: a fixed viewer without loading anything. */
export const StaticProductAccess = (props: { viewer: ProductViewer; children: ReactNode }) => (
  <ProductAccessContext.Provider value={{ viewer: props.viewer }}>
    {props.children}
  </ProductAccessContext.Provider>
);

export function useProductAccessState(): ProductAccessState {
  const state = useContext(ProductAccessContext);
  if (!state) {
    throw new Error('Promotions actions must be rendered inside a ProductAccessProvider');
  }
  return state;
}
