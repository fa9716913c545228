import { Navigate, Route } from 'react-router-dom';
import { createApp } from '@backstage/app-defaults';
import { AppRouter, FlatRoutes } from '@backstage/core-app-api';
import {
  CatalogEntityPage,
  CatalogIndexPage,
  catalogPlugin,
} from '@backstage/plugin-catalog';
import { orgPlugin } from '@backstage/plugin-org';
import { NotificationsPage } from '@backstage/plugin-notifications';
import { signalsPlugin } from '@backstage/plugin-signals';
import { entityPage } from './components/catalog/EntityPage';
import { Root } from './components/Root';
import { AppSignInPage } from './components/signIn/AppSignInPage';
import { apis } from './apis';

const app = createApp({
  apis,
  plugins: [signalsPlugin],
  bindRoutes({ bind }) {
    bind(orgPlugin.externalRoutes, {
      catalogIndex: catalogPlugin.routes.catalogIndex,
    });
  },
  components: {
    SignInPage: AppSignInPage,
  },
});

const routes = (
  <FlatRoutes>
    <Route path="/" element={<Navigate to="catalog" />} />
    <Route path="/catalog" element={<CatalogIndexPage />} />
    <Route path="/notifications" element={<NotificationsPage />} />
    <Route
      path="/catalog/:namespace/:kind/:name"
      element={<CatalogEntityPage />}
    >
      {entityPage}
    </Route>
  </FlatRoutes>
);

export default app.createRoot(
  <>
    <AppRouter>
      <Root>{routes}</Root>
    </AppRouter>
  </>,
);
