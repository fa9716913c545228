// Generated from plugins/promotions-backend/src/schema/openapi.yaml by its generate.js: do not edit.
/* eslint-disable */
import type { ApprovalItem } from '../../../approval/inbox';
import type { Hold } from '../../../autoPromote/types';
import type { StageChanges } from '../../../changes/types';
import type { Ladder, LadderServiceCell } from '../../../ladder/types';
import type { OverviewResponse, StuckResponse } from '../../../overview/types';
import type {
  Promotion,
  PromotionEvent,
  PromotionResponse,
  StageHistoryEntry,
  WriteQueueState,
} from '../../../promotions/types';
import type {
  PromotionRequest,
  RollbackRequest,
  HoldRequest,
  ReasonRequest,
  IncidentReport,
  AutoPromotionRecord,
  DeliveryMetricsResponse,
  IncidentOutcome,
} from './models';

/** A Response whose `json()` is the route's answer. @public */
export type TypedResponse<T> = Omit<Response, 'json'> & { json(): Promise<T> };

/** Per call: a Backstage token sent as `Authorization: Bearer <token>`. @public */
export interface RequestOptions {
  token?: string;
}

/** Finds the plugin's base URL (Backstage's DiscoveryApi or DiscoveryService). @public */
export interface DiscoveryLike {
  getBaseUrl(pluginId: string): Promise<string>;
}

/** Sends the requests (Backstage's FetchApi, or the global fetch). @public */
export interface FetchLike {
  fetch: typeof fetch;
}

function queryString(query: Record<string, unknown>, names: string[]): string {
  const params = new URLSearchParams();
  for (const name of names) {
    const value = query[name];
    if (value !== undefined) params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * The `promotions` backend's routes (`/api/promotions`), one method per operation of
 * openapi.yaml. It answers the Response as it came: callers decide what a status means.
 *
 * @public
 */
export class DefaultApiClient {
  private readonly discoveryApi: DiscoveryLike;
  private readonly fetchApi: FetchLike;

  constructor(options: { discoveryApi: DiscoveryLike; fetchApi?: FetchLike }) {
    this.discoveryApi = options.discoveryApi;
    this.fetchApi = options.fetchApi ?? {
      fetch: (input, init) => fetch(input, init),
    };
  }

  /** GET /health: Answers while the plugin runs (any user or service token). */
  async getHealth(
    _request: {} = {},
    options?: RequestOptions,
  ): Promise<TypedResponse<{ status: 'ok' }>> {
    return this.send('GET', `/health`, undefined, options);
  }

  /** GET /products/{team}/{product}/ladder: The Product's annotated ladder, one entry per stage, bottom first. With `detail=summary` each cell leaves out its `checks`, `checklist` and `diagnosis` for a `brief` of them (a third of the bytes); GetLadderCell answers one cell in full. */
  async getLadder(
    request: {
      path: { team: string; product: string };
      query?: { detail?: 'full' | 'summary' };
    },
    options?: RequestOptions,
  ): Promise<TypedResponse<Ladder>> {
    return this.send(
      'GET',
      `/products/${encodeURIComponent(request.path.team)}/${encodeURIComponent(request.path.product)}/ladder` +
        queryString(request.query ?? {}, ['detail']),
      undefined,
      options,
    );
  }

  /** GET /products/{team}/{product}/ladder/stages/{stage}/services/{service}: One cell of the ladder in full (what the ladder route answers for it without `detail=summary`), with the same read permission; 404 for a stage or Service the ladder does not have there. */
  async getLadderCell(
    request: {
      path: { team: string; product: string; stage: string; service: string };
    },
    options?: RequestOptions,
  ): Promise<TypedResponse<LadderServiceCell>> {
    return this.send(
      'GET',
      `/products/${encodeURIComponent(request.path.team)}/${encodeURIComponent(request.path.product)}/ladder/stages/${encodeURIComponent(request.path.stage)}/services/${encodeURIComponent(request.path.service)}`,
      undefined,
      options,
    );
  }

  /** GET /products/{team}/{product}/promotions: The Product's live and recent promotions, newest first. */
  async listPromotions(
    request: { path: { team: string; product: string } },
    options?: RequestOptions,
  ): Promise<TypedResponse<{ items: Array<Promotion> }>> {
    return this.send(
      'GET',
      `/products/${encodeURIComponent(request.path.team)}/${encodeURIComponent(request.path.product)}/promotions`,
      undefined,
      options,
    );
  }

  /** POST /products/{team}/{product}/promotions: Promotes the stage below into `toStage`: 201 with a new Release PR, 200 with the identical promotion already open; 409 when the rules refuse. */
  async requestPromotion(
    request: {
      path: { team: string; product: string };
      body: PromotionRequest;
    },
    options?: RequestOptions,
  ): Promise<TypedResponse<PromotionResponse>> {
    return this.send(
      'POST',
      `/products/${encodeURIComponent(request.path.team)}/${encodeURIComponent(request.path.product)}/promotions`,
      request.body,
      options,
    );
  }

  /** POST /products/{team}/{product}/rollbacks: Rolls Services of a stage back to digests from its recent history, and holds them. */
  async requestRollback(
    request: { path: { team: string; product: string }; body: RollbackRequest },
    options?: RequestOptions,
  ): Promise<TypedResponse<PromotionResponse>> {
    return this.send(
      'POST',
      `/products/${encodeURIComponent(request.path.team)}/${encodeURIComponent(request.path.product)}/rollbacks`,
      request.body,
      options,
    );
  }

  /** GET /products/{team}/{product}/holds: The Product's live holds. */
  async listHolds(
    request: { path: { team: string; product: string } },
    options?: RequestOptions,
  ): Promise<TypedResponse<{ items: Array<Hold> }>> {
    return this.send(
      'GET',
      `/products/${encodeURIComponent(request.path.team)}/${encodeURIComponent(request.path.product)}/holds`,
      undefined,
      options,
    );
  }

  /** POST /products/{team}/{product}/holds: Holds a Service at a stage, so nothing promotes it there until the hold is lifted. */
  async placeHold(
    request: { path: { team: string; product: string }; body: HoldRequest },
    options?: RequestOptions,
  ): Promise<TypedResponse<{ hold: Hold }>> {
    return this.send(
      'POST',
      `/products/${encodeURIComponent(request.path.team)}/${encodeURIComponent(request.path.product)}/holds`,
      request.body,
      options,
    );
  }

  /** DELETE /products/{team}/{product}/holds/{stage}/{service}: Lifts (resumes) the hold on a Service at a stage. */
  async liftHold(
    request: {
      path: { team: string; product: string; stage: string; service: string };
    },
    options?: RequestOptions,
  ): Promise<TypedResponse<{ hold: Hold }>> {
    return this.send(
      'DELETE',
      `/products/${encodeURIComponent(request.path.team)}/${encodeURIComponent(request.path.product)}/holds/${encodeURIComponent(request.path.stage)}/${encodeURIComponent(request.path.service)}`,
      undefined,
      options,
    );
  }

  /** GET /products/{team}/{product}/auto-promotions: The auto-promoter's latest run's decisions for the Product. */
  async listAutoPromotions(
    request: { path: { team: string; product: string } },
    options?: RequestOptions,
  ): Promise<TypedResponse<{ items: Array<AutoPromotionRecord> }>> {
    return this.send(
      'GET',
      `/products/${encodeURIComponent(request.path.team)}/${encodeURIComponent(request.path.product)}/auto-promotions`,
      undefined,
      options,
    );
  }

  /** GET /products/{team}/{product}/changes: What promoting `from` into `to` would change, per Service, with the commits. */
  async getChanges(
    request: {
      path: { team: string; product: string };
      query: { from: string; to: string };
    },
    options?: RequestOptions,
  ): Promise<TypedResponse<StageChanges>> {
    return this.send(
      'GET',
      `/products/${encodeURIComponent(request.path.team)}/${encodeURIComponent(request.path.product)}/changes` +
        queryString(request.query, ['from', 'to']),
      undefined,
      options,
    );
  }

  /** GET /products/{team}/{product}/stages/{stage}/history: The stage's Release file history, newest first. */
  async getStageHistory(
    request: { path: { team: string; product: string; stage: string } },
    options?: RequestOptions,
  ): Promise<TypedResponse<{ items: Array<StageHistoryEntry> }>> {
    return this.send(
      'GET',
      `/products/${encodeURIComponent(request.path.team)}/${encodeURIComponent(request.path.product)}/stages/${encodeURIComponent(request.path.stage)}/history`,
      undefined,
      options,
    );
  }

  /** GET /promotions/{id}: A promotion and its audit trail. */
  async getPromotion(
    request: { path: { id: string } },
    options?: RequestOptions,
  ): Promise<
    TypedResponse<{ promotion: Promotion; events: Array<PromotionEvent> }>
  > {
    return this.send(
      'GET',
      `/promotions/${encodeURIComponent(request.path.id)}`,
      undefined,
      options,
    );
  }

  /** POST /promotions/{id}/approve: Approves the promotion's current PR head. */
  async approvePromotion(
    request: { path: { id: string }; body?: Record<string, unknown> },
    options?: RequestOptions,
  ): Promise<TypedResponse<{ promotion: Promotion }>> {
    return this.send(
      'POST',
      `/promotions/${encodeURIComponent(request.path.id)}/approve`,
      request.body,
      options,
    );
  }

  /** POST /promotions/{id}/override: A release-approver lifts the guards' blocks from an open promotion, with a reason. */
  async overridePromotion(
    request: { path: { id: string }; body: ReasonRequest },
    options?: RequestOptions,
  ): Promise<TypedResponse<{ promotion: Promotion }>> {
    return this.send(
      'POST',
      `/promotions/${encodeURIComponent(request.path.id)}/override`,
      request.body,
      options,
    );
  }

  /** POST /promotions/{id}/reject: A release-approver rejects a promotion awaiting approval; its PR is closed. */
  async rejectPromotion(
    request: { path: { id: string }; body: ReasonRequest },
    options?: RequestOptions,
  ): Promise<TypedResponse<{ promotion: Promotion }>> {
    return this.send(
      'POST',
      `/promotions/${encodeURIComponent(request.path.id)}/reject`,
      request.body,
      options,
    );
  }

  /** POST /promotions/{id}/withdraw: Its requester (or one of the Product's approvers) withdraws a live promotion; its PR is closed with a comment naming them and their reason. */
  async withdrawPromotion(
    request: { path: { id: string }; body: ReasonRequest },
    options?: RequestOptions,
  ): Promise<TypedResponse<{ promotion: Promotion }>> {
    return this.send(
      'POST',
      `/promotions/${encodeURIComponent(request.path.id)}/withdraw`,
      request.body,
      options,
    );
  }

  /** GET /approvals: The promotions awaiting an approval by the caller, oldest first (user tokens only). */
  async listApprovals(
    _request: {} = {},
    options?: RequestOptions,
  ): Promise<TypedResponse<{ items: Array<ApprovalItem> }>> {
    return this.send('GET', `/approvals`, undefined, options);
  }

  /** GET /metrics: Delivery metrics of a Product, a team or the organisation (readable Products only). */
  async getMetrics(
    request: { query?: { scope?: string; from?: string; to?: string } },
    options?: RequestOptions,
  ): Promise<TypedResponse<DeliveryMetricsResponse>> {
    return this.send(
      'GET',
      `/metrics` + queryString(request.query ?? {}, ['scope', 'from', 'to']),
      undefined,
      options,
    );
  }

  /** GET /overview: A page of the organisation's matrix, one row per readable Product. */
  async getOverview(
    request: {
      query?: {
        owner?: string;
        team?: string;
        filter?: 'stuck' | 'awaiting-approval' | 'mine';
        cursor?: string;
        limit?: string;
      };
    },
    options?: RequestOptions,
  ): Promise<TypedResponse<OverviewResponse>> {
    return this.send(
      'GET',
      `/overview` +
        queryString(request.query ?? {}, [
          'owner',
          'team',
          'filter',
          'cursor',
          'limit',
        ]),
      undefined,
      options,
    );
  }

  /** GET /stuck: Every diagnosed-stuck deployment of the readable Products, the longest stuck first. */
  async listStuck(
    _request: {} = {},
    options?: RequestOptions,
  ): Promise<TypedResponse<StuckResponse>> {
    return this.send('GET', `/stuck`, undefined, options);
  }

  /** GET /write-queue: The write queue of the auto-promoter's promotions: how many wait for their pull request to be opened (GitHub's write limit paces them), and since when the oldest (any user or service token). */
  async getWriteQueue(
    _request: {} = {},
    options?: RequestOptions,
  ): Promise<TypedResponse<WriteQueueState>> {
    return this.send('GET', `/write-queue`, undefined, options);
  }

  /** POST /incidents: An incident tool reports an incident opening or resolving (service tokens only). Only with `promotions.incidents` configured; 404 otherwise. */
  async reportIncident(
    request: { body: IncidentReport },
    options?: RequestOptions,
  ): Promise<TypedResponse<IncidentOutcome>> {
    return this.send('POST', `/incidents`, request.body, options);
  }

  private async send<T>(
    method: string,
    path: string,
    body: unknown,
    options: RequestOptions | undefined,
  ): Promise<TypedResponse<T>> {
    const baseUrl = await this.discoveryApi.getBaseUrl('promotions');
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (options?.token) headers.Authorization = `Bearer ${options.token}`;
    const init: RequestInit = { method };
    if (Object.keys(headers).length) init.headers = headers;
    if (body !== undefined) init.body = JSON.stringify(body);
    return this.fetchApi.fetch(`${baseUrl}${path}`, init) as Promise<
      TypedResponse<T>
    >;
  }
}
