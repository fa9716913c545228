import { DiscoveryApi, FetchApi } from '@backstage/core-plugin-api';
import { ResponseError } from '@backstage/errors';
import {
  ApprovalItem,
  AutoPromotionRecord,
  DefaultApiClient,
  DeliveryMetricsResponse,
  Hold,
  HoldRequest,
  Ladder,
  LadderDetail,
  LadderServiceCell,
  OverviewResponse,
  ProductRef,
  Promotion,
  PromotionRequest,
  PromotionResponse,
  RollbackRequest,
  StageChanges,
  StageHistoryEntry,
  StuckItem,
  WriteQueueState,
  TypedResponse,
  formatProductRef,
} from '@refplat/plugin-promotions-common';
import { MetricsScope, OverviewQuery, PromotionsApi } from './PromotionsApi';

// The contract only promises `{promotion}` and tells "already open" by 200
// versus 201, so fall back to the status when the body does not say.
async function readPromotionResponse(response: TypedResponse<PromotionResponse>): Promise<PromotionResponse> {
  const body: Partial<PromotionResponse> & { promotion: Promotion } = await response.json();
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

/** The query of GET /overview: only the filters given (an empty one is no filter). */
function overviewParams(query: OverviewQuery) {
  const given = (value: string | number | undefined) =>
    value === undefined || value === '' ? undefined : String(value);
  return {
    owner: given(query.owner),
    team: given(query.team),
    filter: query.filter || undefined,
    cursor: given(query.cursor),
    limit: given(query.limit),
  };
}

/**
 * Talks to the promotions backend plugin (`/api/promotions`) through the
 * client generated from its openapi.yaml.
 *
 * @public
 */
export class PromotionsClient implements PromotionsApi {
  private readonly api: DefaultApiClient;

  constructor(options: { discoveryApi: DiscoveryApi; fetchApi: FetchApi }) {
    this.api = new DefaultApiClient(options);
  }

  async getLadder(product: ProductRef, options?: { detail?: LadderDetail }): Promise<Ladder> {
    const query = options?.detail ? { detail: options.detail } : undefined;
    return this.read(this.api.getLadder({ path: product, query }));
  }

  async getLadderCell(product: ProductRef, stage: string, service: string): Promise<LadderServiceCell> {
    return this.read(this.api.getLadderCell({ path: { ...product, stage, service } }));
  }

  async requestPromotion(
    product: ProductRef,
    request: PromotionRequest,
  ): Promise<PromotionResponse> {
    return readPromotionResponse(await this.ok(this.api.requestPromotion({ path: product, body: request })));
  }

  async listPromotions(product: ProductRef): Promise<Promotion[]> {
    return (await this.read(this.api.listPromotions({ path: product }))).items;
  }

  async approvePromotion(id: string): Promise<Promotion> {
    return (await this.read(this.api.approvePromotion({ path: { id }, body: {} }))).promotion;
  }

  async rejectPromotion(id: string, reason: string): Promise<Promotion> {
    return (await this.read(this.api.rejectPromotion({ path: { id }, body: { reason } }))).promotion;
  }

  async withdrawPromotion(id: string, reason: string): Promise<Promotion> {
    return (await this.read(this.api.withdrawPromotion({ path: { id }, body: { reason } }))).promotion;
  }

  async listApprovals(): Promise<ApprovalItem[]> {
    return (await this.read(this.api.listApprovals())).items;
  }

  async getStageHistory(
    product: ProductRef,
    stage: string,
  ): Promise<StageHistoryEntry[]> {
    return (await this.read(this.api.getStageHistory({ path: { ...product, stage } }))).items;
  }

  async requestRollback(
    product: ProductRef,
    request: RollbackRequest,
  ): Promise<PromotionResponse> {
    return readPromotionResponse(await this.ok(this.api.requestRollback({ path: product, body: request })));
  }

  async listHolds(product: ProductRef): Promise<Hold[]> {
    return (await this.read(this.api.listHolds({ path: product }))).items;
  }

  async placeHold(product: ProductRef, request: HoldRequest): Promise<Hold> {
    return (await this.read(this.api.placeHold({ path: product, body: request }))).hold;
  }

  async liftHold(product: ProductRef, stage: string, service: string): Promise<Hold> {
    return (await this.read(this.api.liftHold({ path: { ...product, stage, service } }))).hold;
  }

  async listAutoPromotions(product: ProductRef): Promise<AutoPromotionRecord[]> {
    return (await this.read(this.api.listAutoPromotions({ path: product }))).items;
  }

  async getChanges(product: ProductRef, from: string, to: string): Promise<StageChanges> {
    return this.read(this.api.getChanges({ path: product, query: { from, to } }));
  }

  async getOverview(query: OverviewQuery = {}): Promise<OverviewResponse> {
    return this.read(this.api.getOverview({ query: overviewParams(query) }));
  }

  async listStuck(): Promise<StuckItem[]> {
    return (await this.read(this.api.listStuck())).items;
  }

  async getWriteQueue(): Promise<WriteQueueState> {
    return this.read(this.api.getWriteQueue());
  }

  async getMetrics(
    scope: MetricsScope,
    window: { from: Date; to: Date },
  ): Promise<DeliveryMetricsResponse> {
    const query = { scope: scopeParam(scope), from: window.from.toISOString(), to: window.to.toISOString() };
    return this.read(this.api.getMetrics({ query }));
  }

  /** The answer's body, or the backend's error as a ResponseError. */
  private async read<T>(pending: Promise<TypedResponse<T>>): Promise<T> {
    return (await this.ok(pending)).json();
  }

  private async ok<T>(pending: Promise<TypedResponse<T>>): Promise<TypedResponse<T>> {
    const response = await pending;
    if (!response.ok) throw await ResponseError.fromResponse(response as Response);
    return response;
  }
}
