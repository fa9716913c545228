import { BackstageCredentials, PermissionsService } from '@backstage/backend-plugin-api';
import {
  DeliveryMetrics,
  ProductRef,
  computeDeliveryMetrics,
  formatProductRef,
  promotionsLadderReadPermission,
} from '@refplat/plugin-promotions-common';
import { PromotionsConfig } from '../config';
import { authorizeProduct, permittedProducts } from '../service/authorize';
import { DigestTimelineStore } from './DigestTimelineStore';
import { MetricsQuery, formatScope } from './metricsQuery';

export interface MetricsAnswer extends DeliveryMetrics {
  scope: string;
  /** The Products counted: for a team or the organisation, those the caller may read. */
  products: string[];
}

/** GET /metrics: the timelines of the Products in scope that the caller may read, as metrics. */
export class DeliveryMetricsService {
  constructor(
    private readonly options: {
      config: PromotionsConfig;
      store: DigestTimelineStore;
      permissions: PermissionsService;
    },
  ) {}

  async get(credentials: BackstageCredentials, query: MetricsQuery): Promise<MetricsAnswer> {
    const { config, store } = this.options;
    const { scope } = query;
    let products: ProductRef[];
    if (scope.kind === 'product') {
      // A named Product is asked about as the ladder is: 403 unless readable.
      await authorizeProduct(this.options.permissions, credentials, promotionsLadderReadPermission, scope.product);
      products = [scope.product];
    } else {
      const known = await store.products();
      products = await permittedProducts(
        this.options.permissions,
        credentials,
        promotionsLadderReadPermission,
        scope.kind === 'team' ? known.filter(p => p.team === scope.team) : known,
      );
    }
    const metrics = computeDeliveryMetrics({
      arrivals: await store.arrivals(products),
      stages: config.stages,
      from: query.from,
      to: query.to,
      failureWindowMs: config.metrics.failureWindowSeconds * 1000,
    });
    return {
      scope: formatScope(scope),
      products: products.map(formatProductRef),
      ...metrics,
    };
  }
}
