import { CacheService, LoggerService } from '@backstage/backend-plugin-api';
import { ProductRef } from '@refplat/plugin-promotions-common';
import { PromotionsConfig } from '../config';
import { ArgoCdHealthSource } from './ArgoCdHealthSource';
import { CoalescingHealthSource } from './CoalescingHealthSource';
import { ArgoCdApplicationStream } from './ArgoCdApplicationStream';
import { HealthSource } from './HealthSource';
import { HealthStream } from './HealthStream';
import { KubernetesApplicationWatch } from './KubernetesApplicationWatch';
import { KubernetesHealthSource } from './KubernetesHealthSource';

/**
 * The health source the config describes, the default of
 * promotionsHealthSourceExtensionPoint. The config has at most one non-empty
 * list (see chooseHealthInstances: `promotions.kubernetes`, then
 * `promotions.argocd`, then the ArgoCD or Kubernetes plugin's instances);
 * with none, there is no source. `logger` hears what the Kubernetes source could not read of
 * a service's hop evidence.
 */
export function configuredHealthSource(
  config: PromotionsConfig,
  cache: CacheService,
  logger?: LoggerService,
): HealthSource | undefined {
  if (config.kubernetes.length > 0) {
    return new KubernetesHealthSource(config.kubernetes, config.applicationLabels, logger);
  }
  if (config.argocd.length > 0) {
    return new ArgoCdHealthSource(config.argocd, cache, config.applicationLabels);
  }
  return undefined;
}

/**
 * Whichever source the plugin reads, configured or a module's: its
 * Application lists are shared by concurrent viewers and reused for
 * `cacheTtlMs` (promotions.cacheTtl).
 */
export function coalescedHealthSource(
  source: HealthSource | undefined,
  cacheTtlMs: number,
): CoalescingHealthSource | undefined {
  return source && new CoalescingHealthSource(source, cacheTtlMs);
}

/**
 * The Application events of the same instances the health source reads (one
 * follower each), or none when `promotions.healthStream.enabled` is false or
 * there is no health source.
 */
export function createHealthStream(
  config: PromotionsConfig,
  logger: LoggerService,
  onProductChanged: (product: ProductRef) => Promise<void>,
): HealthStream | undefined {
  if (!config.healthStream.enabled) return undefined;
  const watches =
    config.kubernetes.length > 0
      ? config.kubernetes.map(cluster => new KubernetesApplicationWatch(cluster, config.applicationLabels))
      : config.argocd.map(instance => new ArgoCdApplicationStream(instance, config.applicationLabels));
  return watches.length > 0
    ? new HealthStream({ watches, onProductChanged, logger, labels: config.applicationLabels })
    : undefined;
}
