import { DiscoveryApi, FetchApi } from '@backstage/core-plugin-api';
import { ResponseError } from '@backstage/errors';
import {
  ApprovalItem,
  Hold,
  Ladder,
  OverviewResponse,
  ProductRef,
  Promotion,
  PromotionRequest,
  PromotionResponse,
  StageHistoryEntry,
  StuckItem,
  formatProductRef,
} from '@refplat/plugin-promotions-common';
import {
  AutoPromotionRecord,
  DeliveryMetricsResponse,
  HoldRequest,
  MetricsScope,
  OverviewQuery,
  PromotionsApi,
  RollbackRequest,
  StageChanges,
} from './PromotionsApi';

// The contract only promises `{promotion}` and tells "already open" by 200
// versus 201, so fall back to the status when the body does not say.
async function readPromotionResponse(response: Response): Promise<PromotionResponse> {
  const body = (await response.json()) as Partial<PromotionResponse> & {
    promotion: Promotion;
  };
  return {
    promotion: body.promotion,
    existing: body.existing ?? response.status === 200,
    plan: body.plan ?? [],
  };
}

/** `scope=` of GET /metrics. */
function scopeParam(scope: MetricsScope): string {
  if (scope.kind === 'product') return `product:${formatProductRef(scope.product)}`;
  if (scope.kind === 'team') return `team:${scope.team}`;
  return 'org';
}

function productPath(product: ProductRef): string {
  return `/products/${encodeURIComponent(product.team)}/${encodeURIComponent(
    product.product,
  )}`;
}

/**
 * Talks to the promotions backend plugin (`/api/promotions`).
 *
 * @public
 */
export class PromotionsClient implements PromotionsApi {
  private readonly discoveryApi: DiscoveryApi;
  private readonly fetchApi: FetchApi;

  constructor(options: { discoveryApi: DiscoveryApi; fetchApi: FetchApi }) {
    this.discoveryApi = options.discoveryApi;
    this.fetchApi = options.fetchApi;
  }

  async getLadder(product: ProductRef): Promise<Ladder> {
    const response = await this.send(`${productPath(product)}/ladder`);
    return (await response.json()) as Ladder;
  }

  async requestPromotion(
    product: ProductRef,
    request: PromotionRequest,
  ): Promise<PromotionResponse> {
    return this.postForPromotion(`${productPath(product)}/promotions`, request);
  }

  async listPromotions(product: ProductRef): Promise<Promotion[]> {
    return this.getItems<Promotion>(`${productPath(product)}/promotions`);
  }

  async approvePromotion(id: string): Promise<Promotion> {
    const response = await this.send(
      `/promotions/${encodeURIComponent(id)}/approve`,
      { method: 'POST', body: {} },
    );
    return ((await response.json()) as { promotion: Promotion }).promotion;
  }

  async rejectPromotion(id: string, reason: string): Promise<Promotion> {
    const response = await this.send(
      `/promotions/${encodeURIComponent(id)}/reject`,
      { method: 'POST', body: { reason } },
    );
    return ((await response.json()) as { promotion: Promotion }).promotion;
  }

  async listApprovals(): Promise<ApprovalItem[]> {
    return this.getItems<ApprovalItem>('/approvals');
  }

  async getStageHistory(
    product: ProductRef,
    stage: string,
  ): Promise<StageHistoryEntry[]> {
    return this.getItems<StageHistoryEntry>(
      `${productPath(product)}/stages/${encodeURIComponent(stage)}/history`,
    );
  }

  async requestRollback(
    product: ProductRef,
    request: RollbackRequest,
  ): Promise<PromotionResponse> {
    return this.postForPromotion(`${productPath(product)}/rollbacks`, request);
  }

  async listHolds(product: ProductRef): Promise<Hold[]> {
    return this.getItems<Hold>(`${productPath(product)}/holds`);
  }

  async placeHold(product: ProductRef, request: HoldRequest): Promise<Hold> {
    const response = await this.send(`${productPath(product)}/holds`, {
      method: 'POST',
      body: request,
    });
    return ((await response.json()) as { hold: Hold }).hold;
  }

  async liftHold(product: ProductRef, stage: string, service: string): Promise<Hold> {
    const response = await this.send(
      `${productPath(product)}/holds/${encodeURIComponent(stage)}/${encodeURIComponent(service)}`,
      { method: 'DELETE' },
    );
    return ((await response.json()) as { hold: Hold }).hold;
  }

  async listAutoPromotions(product: ProductRef): Promise<AutoPromotionRecord[]> {
    return this.getItems<AutoPromotionRecord>(`${productPath(product)}/auto-promotions`);
  }

  async getChanges(product: ProductRef, from: string, to: string): Promise<StageChanges> {
    const query = new URLSearchParams({ from, to });
    const response = await this.send(`${productPath(product)}/changes?${query}`);
    return (await response.json()) as StageChanges;
  }

  async getOverview(query: OverviewQuery = {}): Promise<OverviewResponse> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && value !== '') params.set(name, String(value));
    }
    const search = params.toString();
    const response = await this.send(`/overview${search ? `?${search}` : ''}`);
    return (await response.json()) as OverviewResponse;
  }

  async listStuck(): Promise<StuckItem[]> {
    return this.getItems<StuckItem>('/stuck');
  }

  async getMetrics(
    scope: MetricsScope,
    window: { from: Date; to: Date },
  ): Promise<DeliveryMetricsResponse> {
    const query = new URLSearchParams({
      scope: scopeParam(scope),
      from: window.from.toISOString(),
      to: window.to.toISOString(),
    });
    const response = await this.send(`/metrics?${query}`);
    return (await response.json()) as DeliveryMetricsResponse;
  }

  /** A list endpoint's `{items}`. */
  private async getItems<T>(path: string): Promise<T[]> {
    const response = await this.send(path);
    return ((await response.json()) as { items: T[] }).items;
  }

  /** A request that opens (or finds already open) a promotion PR. */
  private async postForPromotion(path: string, body: unknown): Promise<PromotionResponse> {
    const response = await this.send(path, { method: 'POST', body });
    return readPromotionResponse(response);
  }

  private async send(
    path: string,
    options: { method?: 'GET' | 'POST' | 'DELETE'; body?: unknown } = {},
  ): Promise<Response> {
    const baseUrl = await this.discoveryApi.getBaseUrl('promotions');
    const response = await this.fetchApi.fetch(
      `${baseUrl}${path}`,
      options.body === undefined
        ? { method: options.method ?? 'GET' }
        : {
            method: options.method ?? 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify(options.body),
          },
    );
    if (!response.ok) {
      throw await ResponseError.fromResponse(response);
    }
    return response;
  }
}
