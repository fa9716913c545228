import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { catalogServiceRef } from '@backstage/plugin-catalog-node';
import { promotionsPermissions } from '@refplat/plugin-promotions-common';
import { readPromotionsConfig } from './config';
import { AutoDecisionStore } from './database/AutoDecisionStore';
import { DatabasePromotionStore, migratedClient } from './database/DatabasePromotionStore';
import { HealthySinceStore } from './database/HealthySinceStore';
import { HoldStore } from './database/HoldStore';
import { LIVE_STATUSES } from './database/PromotionStore';
import { createOctokit } from './github/createOctokit';
import { PlatformRepoReader } from './github/PlatformRepoReader';
import { PlatformRepoWriter } from './github/PlatformRepoWriter';
import { createHealthSource } from './health/createHealthSource';
import { LadderAnnotations } from './ladder/LadderAnnotations';
import { LadderService } from './ladder/LadderService';
import { AutoPromoter } from './promotions/AutoPromoter';
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
        auth: coreServices.auth,
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
        auth,
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
        const db = await migratedClient(database);
        const store = new DatabasePromotionStore(db);
        const holds = new HoldStore(db);
        const healthySince = new HealthySinceStore(db);
        const autoDecisions = new AutoDecisionStore(db);
        const annotations = new LadderAnnotations({ holds, healthySince, autoDecisions });
        const healthSource = createHealthSource(config);

        const ladderService = new LadderService({
          config,
          repo: reader,
          healthSource,
          logger,
          annotate: ladder => annotations.annotate(ladder),
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
        const stageHistory = new StageHistory({ config, writer, store, cache });
        const promotionService = new PromotionService({
          config,
          ladder: ladderService,
          store,
          writer,
          logger,
          onChange,
          holds,
          wasReleasedIn: async (product, stage, service, digest) =>
            (await stageHistory.list(product, stage)).some(
              entry => entry.services[service] === digest,
            ),
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

        if (config.autoPromote.enabled) {
          const autoPromoter = new AutoPromoter({
            config,
            reader,
            ladder: ladderService,
            promotions: promotionService,
            healthSource,
            holds,
            healthySince,
            decisions: autoDecisions,
            catalog,
            auth,
            logger,
          });
          await scheduler.scheduleTask({
            id: 'promotions-auto-promoter',
            frequency: config.autoPromote.frequency,
            timeout: { minutes: 10 },
            scope: 'global',
            fn: async () => {
              await autoPromoter.run();
            },
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
            stageHistory,
            store,
            holds,
            autoDecisions,
          }),
        );
      },
    });
  },
});
