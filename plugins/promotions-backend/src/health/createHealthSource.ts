import { CacheService } from '@backstage/backend-plugin-api';
import { PromotionsConfig } from '../config';
import { ArgoCdHealthSource } from './ArgoCdHealthSource';
import { CoalescingHealthSource } from './CoalescingHealthSource';
import { HealthSource } from './HealthSource';
import { KubernetesHealthSource } from './KubernetesHealthSource';

/**
 * The config has at most one non-empty list (see chooseHealthInstances:
 * `promotions.kubernetes`, then `promotions.argocd`, then the ArgoCD or
 * Kubernetes plugin's instances). Either way Application lists are shared by
 * concurrent viewers and reused for `cacheTtlMs` (promotions.cacheTtl).
 */
export function createHealthSource(
  config: PromotionsConfig,
  cache: CacheService,
  cacheTtlMs: number,
): HealthSource | undefined {
  const source = createUncoalesced(config, cache);
  return source && new CoalescingHealthSource(source, cacheTtlMs);
}

function createUncoalesced(config: PromotionsConfig, cache: CacheService): HealthSource | undefined {
  if (config.kubernetes.length > 0) {
    return new KubernetesHealthSource(config.kubernetes);
  }
  if (config.argocd.length > 0) {
    return new ArgoCdHealthSource(config.argocd, cache);
  }
  return undefined;
}
