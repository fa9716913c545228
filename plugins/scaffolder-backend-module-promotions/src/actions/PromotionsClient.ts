import { DiscoveryService } from '@backstage/backend-plugin-api';
import { ForwardedError, ResponseError } from '@backstage/errors';
import type { Promotion } from '@refplat/plugin-promotions-common';

/** What the promotions backend answers to a request (`POST …/promotions`). */
export interface RequestedPromotion {
  existing: boolean;
  promotion: Promotion;
}

/** A stage's cells as the ladder route answers them, as far as waiting reads them. */
export interface LadderStages {
  stages: Array<{ name: string; services: Record<string, { digest?: string; verdict: string }> }>;
}

/**
 * The promotions backend's HTTP routes, called with a token for each call
 * (the initiating user's, so the backend applies that user's permissions).
 */
export class PromotionsClient {
  constructor(private readonly discovery: DiscoveryService) {}

  async request(token: string, product: { team: string; product: string }, body: { toStage: string; services?: string[] }) {
    const path = `/products/${encodeURIComponent(product.team)}/${encodeURIComponent(product.product)}/promotions`;
    return this.call<RequestedPromotion>(token, 'POST', path, body);
  }

  async promotion(token: string, id: string) {
    return (await this.call<{ promotion: Promotion }>(token, 'GET', `/promotions/${encodeURIComponent(id)}`)).promotion;
  }

  async ladder(token: string, product: { team: string; product: string }) {
    const path = `/products/${encodeURIComponent(product.team)}/${encodeURIComponent(product.product)}/ladder`;
    return this.call<LadderStages>(token, 'GET', path);
  }

  private async call<T>(token: string, method: string, path: string, body?: object): Promise<T> {
    const baseUrl = await this.discovery.getBaseUrl('promotions');
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!response.ok) {
      const { statusCode, cause } = await ResponseError.fromResponse(response);
      // Keeps the backend's reason and error name (e.g. ConflictError) for the template's log.
      throw new ForwardedError(`The promotions backend answered ${statusCode}`, cause);
    }
    return (await response.json()) as T;
  }
}
