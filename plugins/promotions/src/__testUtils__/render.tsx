import { ReactElement } from 'react';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { permissionApiRef } from '@backstage/plugin-permission-react';
import { entityRouteRef } from '@backstage/plugin-catalog-react';
import { PromotionsApi, promotionsApiRef } from '../api';
import { StaticProductAccess } from '../access/ProductAccessContext';
import { ProductViewer } from '../access/productChangeAccess';
import { fakePermissionApi } from './permissions';

/** The promotions API methods a test provides, its permission decisions and who looks. */
export interface TestApis {
  api?: Partial<PromotionsApi>;
  permissions?: ReturnType<typeof fakePermissionApi>;
  viewer?: Partial<ProductViewer>;
}

/** bob of team alpha, which owns shop; release-approvers approve prod. */
export const BOB: ProductViewer = {
  userEntityRef: 'user:default/bob',
  claims: ['user:default/bob', 'group:default/alpha'],
  owners: ['group:default/alpha'],
  approvers: ['group:default/release-approvers'],
  requireOwnership: true,
  requireDistinctApprover: true,
};

/** alice, a release-approver. */
export const ALICE: Partial<ProductViewer> = {
  userEntityRef: 'user:default/alice',
  claims: ['user:default/alice', 'group:default/release-approvers'],
};

/**
 * Renders `element` in a test app with the given promotions API methods,
 * permission decisions (everything allowed unless told otherwise) and viewer
 * (bob, an owner, unless told otherwise).
 */
export function renderWithPromotionsApis(
  element: ReactElement,
  options: TestApis = {},
) {
  return renderInTestApp(
    <TestApiProvider
      apis={[
        [promotionsApiRef, options.api ?? {}],
        [permissionApiRef, options.permissions ?? fakePermissionApi()],
      ]}
    >
      <StaticProductAccess viewer={{ ...BOB, ...options.viewer }}>{element}</StaticProductAccess>
    </TestApiProvider>,
    // People and groups link to their catalog pages.
    { mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef } },
  );
}
