import { coreServices, createBackendPlugin } from '@backstage/backend-plugin-api';
import { actionsRegistryServiceRef } from '@backstage/backend-plugin-api/alpha';
import { catalogServiceRef } from '@backstage/plugin-catalog-node';
import { notificationService } from '@backstage/plugin-notifications-node';
import { signalsServiceRef } from '@backstage/plugin-signals-node';
import { eventsServiceRef } from '@backstage/plugin-events-node';
import {
  HealthSource,
  PromotionGuard,
  PromotionsDirectory,
  promotionsDirectoryExtensionPoint,
  promotionsGuardsExtensionPoint,
  promotionsHealthSourceExtensionPoint,
} from '@refplat/plugin-promotions-node';
import { notConfiguredReason, readPromotionsConfig } from './config';
import { migratedClient } from './database/DatabasePromotionStore';
import { IN_MEMORY_DATABASE_WARNING, isInMemoryDatabase } from './database/inMemoryDatabase';
import { registerProductResourceType } from './permissions/productResourceType';
import { subscribePromotions } from './wiring/promotionsEvents';
import { promotionsRoot } from './wiring/promotionsRoot';
import { promotionsTasks } from './wiring/promotionsTasks';
import { promotionsHttp } from './wiring/promotionsHttp';
import { createNotConfiguredRouter } from './service/notConfiguredRouter';
import { ModuleReplacement } from './extensions/ModuleReplacement';
import { PlatformRepoPorts, platformRepoSlotExtensionPoint } from './extensions/platformRepoSlot';
import { configuredHealthSource } from './health/createHealthSource';
import { catalogDirectory } from './service/catalogDirectory';

/**
 * The promotions backend plugin, mounted at `/api/promotions`.
 *
 * @public
 */
export const promotionsPlugin = createBackendPlugin({
  pluginId: 'promotions',
  register(env) {
    const addedGuards: PromotionGuard[] = [];
    env.registerExtensionPoint(promotionsGuardsExtensionPoint, {
      addGuard: guard => {
        addedGuards.push(guard);
      },
    });
    const healthSources = new ModuleReplacement<HealthSource, HealthSource | undefined>('The promotions health source');
    env.registerExtensionPoint(promotionsHealthSourceExtensionPoint, {
      setHealthSource: source => healthSources.set(source),
    });
    const directories = new ModuleReplacement<PromotionsDirectory>('The promotions directory');
    env.registerExtensionPoint(promotionsDirectoryExtensionPoint, {
      setDirectory: directory => directories.set(directory),
    });
    const platformRepos = new ModuleReplacement<PlatformRepoPorts, undefined>('The platform repo');
    env.registerExtensionPoint(platformRepoSlotExtensionPoint, {
      setPlatformRepo: ports => platformRepos.set(ports),
    });
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
        lifecycle: coreServices.lifecycle,
        auth: coreServices.auth,
        userInfo: coreServices.userInfo,
        auditor: coreServices.auditor,
        catalog: catalogServiceRef,
        signals: signalsServiceRef,
        events: eventsServiceRef,
        notifications: notificationService,
        // Alpha in @backstage/backend-plugin-api 1.12: the registry that serves actions (and MCP tools).
        actionsRegistry: actionsRegistryServiceRef,
      },
      async init(deps) {
        const { httpRouter, permissionsRegistry, scheduler, logger } = deps;
        const connectProducts = registerProductResourceType(permissionsRegistry);
        const notConfigured = notConfiguredReason(deps.rootConfig);
        if (notConfigured) {
          // Idle, not failing: the rest of the backend keeps working, and
          // nothing is migrated, scheduled or written until it is configured.
          logger.warn(`${notConfigured}. Until then its routes answer 503.`);
          httpRouter.use(createNotConfiguredRouter(notConfigured));
          return;
        }
        const db = await migratedClient(deps.database);
        if (isInMemoryDatabase(db)) logger.warn(IN_MEMORY_DATABASE_WARNING);
        const parts = promotionsRoot({
          ...deps,
          db,
          addedGuards,
          healthSource: await healthSources.resolve(async () =>
            configuredHealthSource(readPromotionsConfig(deps.rootConfig), deps.cache, logger),
          ),
          directory: await directories.resolve(async () => catalogDirectory(deps)),
          platformRepo: await platformRepos.resolve(async () => undefined),
        });
        const { config, people, promotions } = parts;
        // Say where health comes from: it may be borrowed from another plugin's config, or a module's.
        for (const warning of config.healthConfig.warnings) logger.warn(warning);
        if (healthSources.isSet) logger.info('Health comes from the source a backend module set (promotionsHealthSourceExtensionPoint)');
        else if (config.healthConfig.origin === 'none') logger.warn(config.healthConfig.reason);
        else logger.info(config.healthConfig.reason);
        connectProducts({ owners: people.directory, approvers: product => people.approvalRights.approversOf(product) });

        await subscribePromotions(parts, deps.events, logger);
        const { healthStream } = promotions;
        if (healthStream) {
          deps.lifecycle.addStartupHook(() => healthStream.start());
          deps.lifecycle.addShutdownHook(() => healthStream.stop());
        }
        for (const task of promotionsTasks(parts, logger)) await scheduler.scheduleTask(task);
        httpRouter.use(await promotionsHttp(parts, deps));
      },
    });
  },
});
