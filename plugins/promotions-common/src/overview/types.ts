import type { Diagnosis } from '../diagnosis/diagnose';

/**
 * The organisation's matrix (`GET /overview`) and stuck list (`GET /stuck`):
 * one row per Product, one cell per stage, read from the ladders the plugin
 * already builds.
 */

/**
 * A stage of one Product at a glance. `stuck` is the diagnosis thresholds'
 * word; an unhealthy stage that is not (yet) stuck shows as `progressing`.
 *
 * @public
 */
export type OverviewVerdict = 'healthy' | 'progressing' | 'stuck' | 'unknown';

/** @public */
export interface OverviewCell {
  stage: string;
  verdict: OverviewVerdict;
  /** Whether this stage runs the digests the stage below names (true for the lowest stage). */
  matchesBelow: boolean;
  /** ISO: since when the stage below has run something this stage does not. */
  behindSince?: string;
  /** Live holds on this stage's services. */
  holds: number;
  /** Promotions into this stage that have not merged or closed yet. */
  openPromotions: number;
  /** Of those, the ones waiting for an approver. */
  awaitingApproval: number;
}

/** @public */
export interface OverviewRow {
  /** `team/product`. */
  product: string;
  team: string;
  title?: string;
  /** Entity refs of the Product's owners. */
  owners: string[];
  /** One per stage, in the response's `stages` order. */
  cells: OverviewCell[];
}

/** @public */
export interface OverviewResponse {
  stages: string[];
  rows: OverviewRow[];
  /** Rows matching the filters, over every page. */
  total: number;
  /** Opaque: pass it back as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
}

/** @public */
export interface StuckItem {
  /** `team/product`. */
  product: string;
  team: string;
  stage: string;
  service?: string;
  /** One line: what is stuck, where. */
  summary: string;
  diagnosis: Diagnosis;
  /** ISO: when the stuck step started, when known. */
  stuckSince?: string;
  owners: string[];
}

/** @public */
export interface StuckResponse {
  items: StuckItem[];
}
