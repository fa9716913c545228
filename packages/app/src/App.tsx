import { createApp } from '@backstage/frontend-defaults';
import { appModule } from './modules/appModule';
import { catalogModule } from './modules/catalogModule';

/**
 * The app on Backstage's new frontend system, as a fresh create-app app is:
 * the plugins (catalog, org, notifications, signals, promotions) come from
 * feature discovery (`app.packages: all` in app-config.yaml, read when the
 * app is built); these modules add only what this demo does differently.
 */
const app = createApp({
  features: [appModule, catalogModule],
});

export default app.createRoot();
