import {
  AuditorService,
  AuthService,
  CacheService,
  LoggerService,
  PermissionsService,
  RootConfigService,
  SchedulerService,
} from '@backstage/backend-plugin-api';
import { CatalogService } from '@backstage/plugin-catalog-node';
import { NotificationService } from '@backstage/plugin-notifications-node';
import { SignalsService } from '@backstage/plugin-signals-node';
import type { HealthSource, PromotionGuard, PromotionsDirectory } from '@refplat/plugin-promotions-node';
import { Knex } from 'knex';
import { PromotionsConfig } from '../config';
import type { PlatformRepoPorts } from '../extensions/platformRepoSlot';

/** What the composition root is built from: Backstage's services and the slots modules fill. */
export interface PromotionsRootDeps {
  rootConfig: RootConfigService;
  cache: CacheService;
  /** The plugin's database, migrated. */
  db: Knex;
  logger: LoggerService;
  catalog: CatalogService;
  auth: AuthService;
  permissions: PermissionsService;
  auditor: AuditorService;
  signals?: SignalsService;
  notifications?: NotificationService;
  /** Slot: guards added by backend modules through promotionsGuardsExtensionPoint. */
  addedGuards?: PromotionGuard[];
  /** Slot: a module's health source (promotionsHealthSourceExtensionPoint); the configured one when not given. */
  healthSource?: HealthSource;
  /** Slot: a module's directory (promotionsDirectoryExtensionPoint); the catalog when not given. */
  directory?: PromotionsDirectory;
  /**
   * Slot: the platform repo's ports in place of GitHub's adapters (the tests' in-memory fake,
   * through platformRepoSlotExtensionPoint). The delivery metrics' history and the webhooks'
   * head cache still read GitHub: they are GitHub's own.
   */
  platformRepo?: PlatformRepoPorts;
  /** Runs the write queue's task (WRITE_QUEUE_TASK, which the plugin schedules); without it, queued promotions open in this process at once. */
  scheduler?: SchedulerService;
}

/** Every part is built from the root's deps and the plugin's config, read once. */
export interface PartDeps extends PromotionsRootDeps {
  config: PromotionsConfig;
}
