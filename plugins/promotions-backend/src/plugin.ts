import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
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
import { subscribeToGithubWebhooks } from './events/createPromotionsWebhooks';
import { createPromotionsServices } from './service/createServices';
import { createRouter } from './service/router';
import { OverviewService } from './service/OverviewService';
import { PromotionsOperations } from './service/PromotionsOperations';
import { registerPromotionsActions } from './actions/registerPromotionsActions';
import { createNotConfiguredRouter } from './service/notConfiguredRouter';
import { ModuleReplacement } from './extensions/ModuleReplacement';
import { configuredHealthSource } from './health/createHealthSource';
import { catalogDirectory } from './service/catalogDirectory';
import { asBulkWork } from './github/WriteBudget';
import { WRITE_QUEUE_TASK } from './promotions/PromotionQueue';

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
        const { httpRouter, httpAuth, permissions, permissionsRegistry, scheduler, logger } = deps;
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
        const services = createPromotionsServices({
          ...deps,
          db,
          addedGuards,
          healthSource: await healthSources.resolve(async () =>
            configuredHealthSource(readPromotionsConfig(deps.rootConfig), deps.cache),
          ),
          directory: await directories.resolve(async () => catalogDirectory(deps)),
        });
        const { config, gate, autoPromoter, timelineReader, stuckSweep } = services;
        // Say where health comes from: it may be borrowed from another plugin's config, or a module's.
        for (const warning of config.healthConfig.warnings) logger.warn(warning);
        if (healthSources.isSet) logger.info('Health comes from the source a backend module set (promotionsHealthSourceExtensionPoint)');
        else if (config.healthConfig.origin === 'none') logger.warn(config.healthConfig.reason);
        else logger.info(config.healthConfig.reason);
        connectProducts({
          owners: services.owners,
          approvers: product => services.approvalRights.approversOf(product),
        });

        await subscribeToGithubWebhooks({ ...services, events: deps.events, logger });
        await services.incidentService?.subscribe(deps.events);

        const { healthStream } = services;
        if (healthStream) {
          deps.lifecycle.addStartupHook(() => healthStream.start());
          deps.lifecycle.addShutdownHook(() => healthStream.stop());
        }

        if (config.gate.enabled) {
          await scheduler.scheduleTask({
            id: 'promotions-gate',
            frequency: config.gate.frequency,
            // A replica that dies mid-run holds the task until this runs out:
            // keep it short so another replica takes over within a minute.
            timeout: { minutes: 1 },
            scope: 'global',
            fn: signal => gate.checkAll(signal),
          });
        }
        // The write queue is in the database: one replica at a time drains it, when the
        // auto-promoter has queued (it triggers this) and every few seconds for what a
        // restarted or stopped replica left.
        await scheduler.scheduleTask({
          id: WRITE_QUEUE_TASK,
          frequency: { seconds: 10 },
          // A replica that dies mid-drain holds the task until this runs out; a drain that
          // runs longer stops after the PR in hand and the next run goes on.
          timeout: { minutes: 1 },
          scope: 'global',
          fn: async signal => {
            await services.promotionQueue.drain(signal);
          },
        });
        if (config.autoPromote.enabled) {
          await scheduler.scheduleTask({
            id: 'promotions-auto-promoter',
            frequency: config.autoPromote.frequency,
            timeout: { minutes: 10 },
            scope: 'global',
            // Bulk work: its GitHub writes wait behind people's for the write budget.
            fn: async () => {
              await asBulkWork(() => autoPromoter.run());
            },
          });
        }

        if (config.stuckNotifications.enabled) {
          await scheduler.scheduleTask({
            id: 'promotions-stuck-notifications',
            frequency: config.stuckNotifications.frequency,
            // Builds every ladder: one replica at a time, and a slow run gives way to the next.
            timeout: { minutes: 10 },
            scope: 'global',
            fn: async () => {
              const { products, failed } = await stuckSweep.run();
              if (failed) logger.warn(`Stuck sweep: ${failed} of ${products} Products could not be looked at`);
            },
          });
        }

        if (config.metrics.enabled) {
          await scheduler.scheduleTask({
            id: 'promotions-delivery-metrics',
            frequency: config.metrics.frequency,
            // One replica reads each commit; a long backfill resumes where it stopped.
            timeout: { minutes: 10 },
            scope: 'global',
            fn: async () => {
              await timelineReader.readNewCommits();
            },
          });
        }

        const operations = new PromotionsOperations({
          permissions,
          userInfo: deps.userInfo,
          auditor: deps.auditor,
          ...services,
        });
        registerPromotionsActions({ actionsRegistry: deps.actionsRegistry, operations, auth: deps.auth });
        const overview = new OverviewService({
          model: services.overviewModel,
          stages: services.config.stages,
          permissions,
          userInfo: deps.userInfo,
        });
        httpRouter.use(await createRouter({ operations, httpAuth, permissions, overview, ...services }));
      },
    });
  },
});
