import { CacheService } from '@backstage/backend-plugin-api';
import { PromotionsConfig } from '../config';
import { ArgoCdHealthSource } from './ArgoCdHealthSource';
import { HealthSource } from './HealthSource';
import { KubernetesHealthSource } from './KubernetesHealthSource';

/** `promotions.kubernetes` wins when set; otherwise `promotions.argocd`. */
export function createHealthSource(
  config: PromotionsConfig,
  cache: CacheService,
): HealthSource | undefined {
  if (config.kubernetes.length > 0) {
    return new KubernetesHealthSource(config.kubernetes);
  }
  if (config.argocd.length > 0) {
    return new ArgoCdHealthSource(config.argocd, cache);
  }
  return undefined;
}
