import { DeliveryMetrics, ProductRef, computeDeliveryMetrics, formatProductRef } from '@refplat/plugin-promotions-common';
import { PromotionsConfig } from '../config';
import type { ProductReadAccess } from '../service/authorize';
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
    },
  ) {}

  /** `access`: what the caller may read, as the operations layer decides it. */
  async get(query: MetricsQuery, access: ProductReadAccess): Promise<MetricsAnswer> {
    const { config, store } = this.options;
    const { scope } = query;
    let products: ProductRef[];
    if (scope.kind === 'product') {
      // A named Product is asked about as the ladder is: 403 unless readable.
      await access.require(scope.product);
      products = [scope.product];
    } else {
      const known = await store.products();
      products = await access.among(scope.kind === 'team' ? known.filter(p => p.team === scope.team) : known);
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
