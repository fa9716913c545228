import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { createRouter } from './service/router';

/** The promotions backend plugin, mounted at `/api/promotions`. */
export const promotionsPlugin = createBackendPlugin({
  pluginId: 'promotions',
  register(env) {
    env.registerInit({
      deps: {
        httpRouter: coreServices.httpRouter,
        httpAuth: coreServices.httpAuth,
        logger: coreServices.logger,
      },
      async init({ httpRouter, httpAuth, logger }) {
        httpRouter.use(await createRouter({ httpAuth, logger }));
        logger.info('Promotions backend ready');
      },
    });
  },
});
