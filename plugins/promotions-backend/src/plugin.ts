import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { catalogServiceRef } from '@backstage/plugin-catalog-node';
import { promotionsPermissions } from '@refplat/plugin-promotions-common';
import { readPromotionsConfig } from './config';
import { DatabasePromotionStore } from './database/DatabasePromotionStore';
import { LIVE_STATUSES } from './database/PromotionStore';
import { createOctokit } from './github/createOctokit';
import { PlatformRepoReader } from './github/PlatformRepoReader';
import { PlatformRepoWriter } from './github/PlatformRepoWriter';
import { createHealthSource } from './health/createHealthSource';
import { LadderService } from './ladder/LadderService';
import { ApprovalService } from './promotions/ApprovalService';
import { Gate } from './promotions/Gate';
import { PromotionService } from './promotions/PromotionService';
import { StageHistory } from './promotions/StageHistory';
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
        database: coreServices.database,
        scheduler: coreServices.scheduler,
        logger: coreServices.logger,
        catalog: catalogServiceRef,
      },
      async init({
        rootConfig,
        httpRouter,
        httpAuth,
        permissions,
        permissionsRegistry,
        cache,
        database,
        scheduler,
        logger,
        catalog,
      }) {
        const config = readPromotionsConfig(rootConfig);
        permissionsRegistry.addPermissions(promotionsPermissions);

        const octokit = createOctokit({ config: rootConfig, ...config.platformRepo, logger });
        const reader = new PlatformRepoReader(octokit, cache, config.platformRepo, [
          config.releasesPath,
          config.environmentsPath,
        ]);
        const writer = new PlatformRepoWriter(octokit, config.platformRepo);
        const store = await DatabasePromotionStore.create(database);

        const ladderService = new LadderService({
          config,
          repo: reader,
          healthSource: createHealthSource(config),
          logger,
          livePromotions: async product =>
            (await store.listForProduct(product.team, product.product, 50)).filter(p =>
              LIVE_STATUSES.includes(p.status),
            ),
        });
        const gate = new Gate({ store, writer, ladder: ladderService, logger });
        // A request or approval is looked at right away, not at the next tick.
        const onChange = (id: string) => {
          void gate.check(id);
        };
        const appBaseUrl = rootConfig.getOptionalString('app.baseUrl');
        const promotionService = new PromotionService({
          config,
          ladder: ladderService,
          store,
          writer,
          logger,
          onChange,
          entityUrl: appBaseUrl
            ? product => `${appBaseUrl}/catalog/default/system/${product.product}`
            : undefined,
        });
        const approvalService = new ApprovalService({
          config,
          store,
          writer,
          catalog,
          permissions,
          logger,
          onChange,
        });

        if (config.gate.enabled) {
          await scheduler.scheduleTask({
            id: 'promotions-gate',
            frequency: config.gate.frequency,
            timeout: { minutes: 5 },
            scope: 'global',
            fn: () => gate.checkAll(),
          });
        }

        httpRouter.use(
          await createRouter({
            httpAuth,
            permissions,
            logger,
            ladderService,
            promotionService,
            approvalService,
            stageHistory: new StageHistory({ config, writer, store, cache }),
            store,
          }),
        );
      },
    });
  },
});
