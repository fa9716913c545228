import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { promotionsPermissions } from '@refplat/plugin-promotions-common';
import { readPromotionsConfig } from './config';
import { createOctokit } from './github/createOctokit';
import { PlatformRepoReader } from './github/PlatformRepoReader';
import { createHealthSource } from './health/createHealthSource';
import { LadderService } from './ladder/LadderService';
import { createRouter } from './service/router';

/** The promotions backend plugin, mounted at `/api/promotions`. */
export const promotionsPlugin = createBackendPlugin({
  pluginId: 'promotions',
  register(env) {
    env.registerInit({
      deps: {
        rootConfig: coreServices.rootConfig,
        httpRouter: coreServices.httpRouter,
        httpAuth: coreServices.httpAuth,
        permissions: coreServices.permissions,
        permissionsRegistry: coreServices.permissionsRegistry,
        cache: coreServices.cache,
        logger: coreServices.logger,
      },
      async init({
        rootConfig,
        httpRouter,
        httpAuth,
        permissions,
        permissionsRegistry,
        cache,
        logger,
      }) {
        const config = readPromotionsConfig(rootConfig);
        permissionsRegistry.addPermissions(promotionsPermissions);

        const octokit = createOctokit({
          config: rootConfig,
          ...config.platformRepo,
          logger,
        });
        const repo = new PlatformRepoReader(
          octokit,
          cache,
          config.platformRepo,
          [config.releasesPath, config.environmentsPath],
        );
        const ladderService = new LadderService({
          config,
          repo,
          healthSource: createHealthSource(config),
          logger,
        });

        httpRouter.use(
          await createRouter({ httpAuth, permissions, logger, ladderService }),
        );
      },
    });
  },
});
