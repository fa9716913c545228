import { DiscoveryService } from '@backstage/backend-plugin-api';
import { ForwardedError, ResponseError } from '@backstage/errors';
import { DefaultApiClient, PromotionRequest, TypedResponse } from '@refplat/plugin-promotions-common';

type ProductPath = { team: string; product: string };

/**
 * The promotions backend's routes the action uses, through the client
 * generated from its openapi.yaml, with a token for each call (the initiating
 * user's, so the backend applies that user's permissions).
 */
export class PromotionsClient {
  private readonly api: DefaultApiClient;

  constructor(discovery: DiscoveryService) {
    this.api = new DefaultApiClient({ discoveryApi: discovery });
  }

  async request(token: string, product: ProductPath, body: PromotionRequest) {
    return read(this.api.requestPromotion({ path: product, body }, { token }));
  }

  async promotion(token: string, id: string) {
    return (await read(this.api.getPromotion({ path: { id } }, { token }))).promotion;
  }

  async ladder(token: string, product: ProductPath) {
    return read(this.api.getLadder({ path: product }, { token }));
  }
}

async function read<T>(pending: Promise<TypedResponse<T>>): Promise<T> {
  const response = await pending;
  if (!response.ok) {
    const { statusCode, cause } = await ResponseError.fromResponse(response as Response);
    // Keeps the backend's reason and error name (e.g. ConflictError) for the template's log.
    throw new ForwardedError(`The promotions backend answered ${statusCode}`, cause);
  }
  return response.json();
}
