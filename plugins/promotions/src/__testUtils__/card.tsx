import { ReactElement } from 'react';
import { JsonObject } from '@backstage/types';
import { configApiRef, identityApiRef } from '@backstage/core-plugin-api';
import { Entity } from '@backstage/catalog-model';
import {
  EntityPresentationApi,
  EntityProvider,
  catalogApiRef,
  defaultEntityPresentation,
  entityPresentationApiRef,
  entityRouteRef,
} from '@backstage/plugin-catalog-react';
import { permissionApiRef } from '@backstage/plugin-permission-react';
import { mockApis, renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { PromotionsApi, promotionsApiRef } from '../api';
import { fakePermissionApi } from './permissions';

/** The System of a Product, owned by team alpha, as the catalog has it. */
export function systemFor(product: string): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'System',
    metadata: { name: product, namespace: 'default', annotations: { 'refplat.org/product': `alpha/${product}` } },
    spec: { owner: 'group:default/alpha' },
  };
}

export interface CardOptions {
  /** The entity whose page shows the card. */
  entity: Entity;
  api: Partial<PromotionsApi>;
  permissions?: ReturnType<typeof fakePermissionApi>;
  /** Who is signed in: bob of team alpha unless told otherwise. */
  user?: { userEntityRef: string; ownershipEntityRefs: string[] };
  /** The catalog's System of the Product: the entity itself unless told otherwise. */
  system?: Entity;
  getEntityByRef?: jest.Mock;
  config?: JsonObject;
  /** Entity ref → the name the catalog presents it by (its profile's display name); others by entity name. */
  displayNames?: Record<string, string>;
}

/** The catalog's presentation of people and groups, as the app's entity presentation API gives it. */
function presentationApi(displayNames: Record<string, string>): EntityPresentationApi {
  return {
    forEntity(entityOrRef, context) {
      const snapshot = defaultEntityPresentation(entityOrRef, context);
      const primaryTitle = displayNames[snapshot.entityRef] ?? snapshot.primaryTitle;
      const named = { ...snapshot, primaryTitle };
      return { snapshot: named, promise: Promise.resolve(named) };
    },
  };
}

export const BOB_IDENTITY = {
  userEntityRef: 'user:default/bob',
  ownershipEntityRefs: ['user:default/bob', 'group:default/alpha'],
};

/**
 * The card reads again on a signal or a user's change, which tests drive;
 * the 10 s poll would add reads a loaded machine's slow test meets at random.
 */
function withoutPolling(config: JsonObject): JsonObject {
  const promotions = (config.promotions ?? {}) as JsonObject;
  return { ...config, promotions: { ui: { refreshSeconds: 3600 }, ...promotions } };
}

/**
 * Renders an entity card as the app does: on the entity's page, with the
 * catalog (its System), who is signed in, config and permissions.
 */
export function renderCard(card: ReactElement, options: CardOptions) {
  const system = options.system ?? options.entity;
  const getEntities = jest.fn(async () => ({ items: [system] }));
  return renderInTestApp(
    <TestApiProvider
      apis={[
        [promotionsApiRef, options.api],
        [catalogApiRef, { getEntityByRef: options.getEntityByRef ?? jest.fn(), getEntities }],
        [permissionApiRef, options.permissions ?? fakePermissionApi()],
        [identityApiRef, mockApis.identity(options.user ?? BOB_IDENTITY)],
        [configApiRef, mockApis.config({ data: withoutPolling(options.config ?? {}) })],
        [entityPresentationApiRef, presentationApi(options.displayNames ?? {})],
      ]}
    >
      <EntityProvider entity={options.entity}>{card}</EntityProvider>
    </TestApiProvider>,
    { mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef } },
  );
}
