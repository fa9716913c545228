import { DiscoveryApi, FetchApi } from '@backstage/core-plugin-api';
import { ResponseError } from '@backstage/errors';
import {
  Hold,
  Ladder,
  ProductRef,
  Promotion,
  PromotionRequest,
  PromotionResponse,
  StageHistoryEntry,
} from '@refplat/plugin-promotions-common';
import {
  AutoPromotionRecord,
  HoldRequest,
  PromotionsApi,
  RollbackRequest,
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

function productPath(product: ProductRef): string {
  return `/products/${encodeURIComponent(product.team)}/${encodeURIComponent(
    product.product,
  )}`;
}

/** Talks to the promotions backend plugin (`/api/promotions`). */
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
    const response = await this.send(`${productPath(product)}/promotions`, {
      method: 'POST',
      body: request,
    });
    return readPromotionResponse(response);
  }

  async listPromotions(product: ProductRef): Promise<Promotion[]> {
    const response = await this.send(`${productPath(product)}/promotions`);
    return ((await response.json()) as { items: Promotion[] }).items;
  }

  async approvePromotion(id: string): Promise<Promotion> {
    const response = await this.send(
      `/promotions/${encodeURIComponent(id)}/approve`,
      { method: 'POST', body: {} },
    );
    return ((await response.json()) as { promotion: Promotion }).promotion;
  }

  async getStageHistory(
    product: ProductRef,
    stage: string,
  ): Promise<StageHistoryEntry[]> {
    const response = await this.send(
      `${productPath(product)}/stages/${encodeURIComponent(stage)}/history`,
    );
    return ((await response.json()) as { items: StageHistoryEntry[] }).items;
  }

  async requestRollback(
    product: ProductRef,
    request: RollbackRequest,
  ): Promise<PromotionResponse> {
    const response = await this.send(`${productPath(product)}/rollbacks`, {
      method: 'POST',
      body: request,
    });
    return readPromotionResponse(response);
  }

  async listHolds(product: ProductRef): Promise<Hold[]> {
    const response = await this.send(`${productPath(product)}/holds`);
    return ((await response.json()) as { items: Hold[] }).items;
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
    const response = await this.send(`${productPath(product)}/auto-promotions`);
    return ((await response.json()) as { items: AutoPromotionRecord[] }).items;
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
