import { createExtensionPoint } from '@backstage/backend-plugin-api';
import type { HealthSource } from './ports';

/**
 * Builds the health source a module puts in place of the plugin's.
 * `getDefault` answers the source the plugin would read without the
 * module (ArgoCD or Kubernetes, from `promotions.argocd`,
 * `promotions.kubernetes` or a borrowed plugin config; undefined when none
 * is configured), so that a module can wrap it rather than start over. A
 * module takes its own config and logger from its own `deps`.
 *
 * @public
 */
export type PromotionsHealthSourceFactory = (options: {
  getDefault(): Promise<HealthSource | undefined>;
}) => HealthSource | Promise<HealthSource>;

/**
 * The interface of {@link promotionsHealthSourceExtensionPoint}.
 *
 * @public
 */
export interface PromotionsHealthSourceExtensionPoint {
  /**
   * Puts this source (or the one the factory builds) in place of the
   * configured ArgoCD or Kubernetes source. At most one module may: a
   * second call throws, and the backend does not start.
   */
  setHealthSource(source: HealthSource | PromotionsHealthSourceFactory): void;
}

/**
 * Lets one backend module replace where the ladder, the Gate and the
 * auto-promoter learn what really runs. The plugin still shares each
 * Product's Application list among concurrent readers for
 * `promotions.cacheTtl`, as it does with its own sources; the health
 * stream keeps following the configured ArgoCD or Kubernetes instances.
 *
 * @public
 */
export const promotionsHealthSourceExtensionPoint = createExtensionPoint<PromotionsHealthSourceExtensionPoint>({
  id: 'promotions.health-source',
});
