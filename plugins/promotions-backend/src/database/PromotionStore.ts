import {
  Promotion,
  PromotionEvent,
  PromotionEventType,
  PromotionStatus,
} from '@refplat/plugin-promotions-common';

/** A promotion as stored: the contract's shape plus what the Gate needs. */
export interface PromotionRecord extends Promotion {
  fingerprint: string;
  branch?: string;
  /** Blob sha of the target Release file the PR was built on. */
  baseBlobSha?: string;
  /** The last `promotions/health` state published on the PR. */
  healthState?: string;
}

export type NewPromotion = Omit<
  PromotionRecord,
  'id' | 'createdAt' | 'updatedAt' | 'pullRequest' | 'status'
> & { status: PromotionStatus };

export const LIVE_STATUSES: PromotionStatus[] = ['open', 'awaiting-approval', 'approved'];

export class OpenPromotionConflictError extends Error {
  constructor(readonly existing: PromotionRecord) {
    super(`A promotion into ${existing.toStage} is already open`);
  }
}

export interface PromotionStore {
  /**
   * Inserts a live promotion, atomically closing `supersedes` first when
   * given. Throws OpenPromotionConflictError when another live promotion
   * holds the same target stage (including one inserted concurrently).
   */
  insertLive(
    promotion: NewPromotion,
    actor: string,
    supersedes?: { id: string; reason: string },
  ): Promise<PromotionRecord>;
  get(id: string): Promise<PromotionRecord | undefined>;
  findLive(team: string, product: string, toStage: string): Promise<PromotionRecord | undefined>;
  listLive(): Promise<PromotionRecord[]>;
  listForProduct(team: string, product: string, limit: number): Promise<PromotionRecord[]>;
  update(
    id: string,
    changes: Partial<
      Pick<
        PromotionRecord,
        'status' | 'statusReason' | 'approvedBy' | 'pullRequest' | 'branch' | 'healthState'
      >
    >,
    event?: { type: PromotionEventType; actor: string; detail?: string },
  ): Promise<PromotionRecord>;
  addEvent(id: string, type: PromotionEventType, actor: string, detail?: string): Promise<void>;
  listEvents(id: string): Promise<PromotionEvent[]>;
}
