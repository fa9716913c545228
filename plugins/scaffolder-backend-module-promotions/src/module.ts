import { coreServices, createBackendModule } from '@backstage/backend-plugin-api';
import { scaffolderActionsExtensionPoint } from '@backstage/plugin-scaffolder-node';
import { createPromotionsRequestAction } from './actions/requestPromotion';

/**
 * Adds the `promotions:request` action to the scaffolder.
 *
 * @public
 */
export const scaffolderModulePromotions = createBackendModule({
  pluginId: 'scaffolder',
  moduleId: 'promotions',
  register(reg) {
    reg.registerInit({
      deps: {
        scaffolder: scaffolderActionsExtensionPoint,
        auth: coreServices.auth,
        discovery: coreServices.discovery,
      },
      async init({ scaffolder, auth, discovery }) {
        scaffolder.addActions(createPromotionsRequestAction({ auth, discovery }));
      },
    });
  },
});
