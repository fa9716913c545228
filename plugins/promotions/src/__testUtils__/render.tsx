import { ReactElement } from 'react';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { permissionApiRef } from '@backstage/plugin-permission-react';
import { PromotionsApi, promotionsApiRef } from '../api';
import { fakePermissionApi } from './permissions';

/** The promotions API methods a test provides, and its permission decisions. */
export interface TestApis {
  api?: Partial<PromotionsApi>;
  permissions?: ReturnType<typeof fakePermissionApi>;
}

/**
 * Renders `element` in a test app with the given promotions API methods and
 * permission decisions (everything allowed unless told otherwise).
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
      {element}
    </TestApiProvider>,
  );
}
