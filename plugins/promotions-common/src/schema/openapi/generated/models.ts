// Generated from plugins/promotions-backend/src/schema/openapi.yaml by its generate.js: do not edit.
/* eslint-disable */
import type { AutoDecision } from '../../../autoPromote/decide';
import type { DeliveryMetrics } from '../../../metrics/deliveryMetrics';

/**
 * Body of `POST /products/{team}/{product}/promotions`.
 *
 * @public
 */
export type PromotionRequest = {
  toStage: string;
  services?: Array<string>;
  override?: ReasonRequest;
};

/**
 * Body of `POST /products/{team}/{product}/rollbacks`.
 *
 * @public
 */
export type RollbackRequest = {
  stage: string;
  services: Record<string, string>;
};

/**
 * Body of `POST /products/{team}/{product}/holds`.
 *
 * @public
 */
export type HoldRequest = { stage: string; service: string; reason: string };

/**
 * Body of `POST /promotions/{id}/override`, `/reject` and `/withdraw`, and a request's `override`.
 *
 * @public
 */
export type ReasonRequest = { reason: string };

/**
 * What an incident tool reports on the events topic `promotions.incidents` (or `POST /incidents`): `product` is the Product's `team/product`.
 *
 * @public
 */
export type IncidentReport = {
  product: string;
  id: string;
  state: 'open' | 'resolved';
  url: string;
};

/**
 * Backstage's error body, which `ResponseError.fromResponse` of `@backstage/errors` reads.
 *
 * @public
 */
export type ErrorBody = {
  error: { name: string; message: string };
  request?: { method?: string; url?: string };
  response: { statusCode: number };
};

/**
 * One decision of the auto-promoter's latest run over a Product.
 *
 * @public
 */
export type AutoPromotionRecord = AutoDecision & {
  runId: string;
  decidedAt: string;
};

/**
 * `GET /metrics`: the metrics of a window and the Products they count (`team/product`, readable ones only).
 *
 * @public
 */
export type DeliveryMetricsResponse = DeliveryMetrics & {
  scope: string;
  products: Array<string>;
};

/**
 * `POST /incidents`: the report as recorded, and whether it changed anything.
 *
 * @public
 */
export type IncidentOutcome = { incident: IncidentReport; changed: boolean };
