import { DiscoveryApi, FetchApi } from '@backstage/core-plugin-api';
import { ResponseError } from '@backstage/errors';
import { Ladder, ProductRef } from '@refplat/plugin-promotions-common';
import { PromotionsApi } from './PromotionsApi';

/** Talks to the promotions backend plugin (`/api/promotions`). */
export class PromotionsClient implements PromotionsApi {
  private readonly discoveryApi: DiscoveryApi;
  private readonly fetchApi: FetchApi;

  constructor(options: { discoveryApi: DiscoveryApi; fetchApi: FetchApi }) {
    this.discoveryApi = options.discoveryApi;
    this.fetchApi = options.fetchApi;
  }

  async getLadder(product: ProductRef): Promise<Ladder> {
    return this.get<Ladder>(
      `/products/${encodeURIComponent(product.team)}/${encodeURIComponent(
        product.product,
      )}/ladder`,
    );
  }

  private async get<T>(path: string): Promise<T> {
    const baseUrl = await this.discoveryApi.getBaseUrl('promotions');
    const response = await this.fetchApi.fetch(`${baseUrl}${path}`);
    if (!response.ok) {
      throw await ResponseError.fromResponse(response);
    }
    return (await response.json()) as T;
  }
}
