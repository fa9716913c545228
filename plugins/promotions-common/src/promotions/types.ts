import type { QueueOpening } from './queueOpening';
/**
 * A promotion as the contract defines it: one Release PR into one stage.
 *
 * @public
 */
export type PromotionStatus =
  | 'open'
  | 'awaiting-approval'
  | 'approved'
  | 'merged'
  | 'closed'
  | 'failed';

/** @public */
export interface Promotion {
  id: string;
  team: string;
  product: string;
  fromStage: string;
  toStage: string;
  /** Service → the digest this promotion writes into `toStage`. */
  services: Record<string, string>;
  /** Service → the digest `toStage` had when the promotion was requested. */
  previousServices?: Record<string, string | null>;
  status: PromotionStatus;
  requestedBy: string;
  approvedBy?: string;
  /** Set when the promotion is a rollback to an earlier digest. */
  kind?: 'promotion' | 'rollback';
  /** Why it is closed or failed, or what it waits for. */
  statusReason?: string;
  /** Set when a release-approver (or its requester) rejected it: who (an entity ref) and why. */
  rejection?: PromotionRejection;
  pullRequest: { number: number; url: string };
  /**
   * Set while the promotion waits in the write queue for its PR to be opened
   * (bulk work, the auto-promoter's: GitHub's write limit paces it); ISO time it joined.
   */
  queuedAt?: string;
  /** On the ladder, while it waits in the write queue: why its PR is not open yet, and when the next write may go. */
  queueOpening?: QueueOpening;
  createdAt: string;
  updatedAt: string;
  /**
   * On the ladder, for a promotion awaiting approval or approved: the
   * approvals of its current PR head and the quorum it needs.
   */
  approval?: PromotionApproval;
}

/**
 * A release-approver's "no" to a promotion, as recorded: `by` is their
 * entity ref; people see their catalog name.
 *
 * @public
 */
export interface PromotionRejection {
  by: string;
  reason: string;
}

/** @public */
export type PromotionEventType =
  | 'requested'
  | 'pr-opened'
  | 'checks-passed'
  | 'checks-failed'
  | 'approved'
  /** An incident commander approved it while an incident was open; the detail is the head approved. */
  | 'incident-approved'
  /** The PR head moved after the approval: it must be approved again. */
  | 'approval-voided'
  | 'merged'
  | 'closed'
  /** A release-approver turned it down; the detail is their reason. */
  | 'rejected'
  /** Its requester (or an approver) took it back; the detail is their reason. */
  | 'withdrawn'
  | 'superseded'
  /** A guard's verdict on the PR changed; the detail is `<guard>: <verdict>: <reason>`. */
  | 'guard-verdict'
  /** A release-approver overrode the guards' blocks; the detail is their reason. */
  | 'guards-overridden'
  | 'failed';

/**
 * One line of a promotion's append-only audit trail.
 *
 * @public
 */
export interface PromotionEvent {
  promotionId: string;
  type: PromotionEventType;
  actor: string;
  at: string;
  detail?: string;
}

/**
 * Why a service is or is not part of a promotion.
 *
 * @public
 */
export interface PromotionServicePlan {
  service: string;
  included: boolean;
  /** Digest in the source stage, if any. */
  from?: string;
  /** Digest in the target stage now, if any. */
  to?: string;
  reason: string;
}

/**
 * Answer of `POST /products/{team}/{product}/promotions` (201/200).
 *
 * @public
 */
export interface PromotionResponse {
  promotion: Promotion;
  /** True when an identical open promotion was returned instead of a new one. */
  existing: boolean;
  plan: PromotionServicePlan[];
}

/**
 * What one commit of a Release record did to one Service's digest: `from`
 * absent when the commit added the Service, `to` absent when it removed it.
 *
 * @public
 */
export interface ReleaseChange {
  service: string;
  /** The digest the commit replaced. */
  from?: string;
  /** The digest the commit wrote. */
  to?: string;
}

/**
 * One entry of `GET /products/{team}/{product}/stages/{stage}/history`: one
 * commit of the stage's Release record.
 *
 * @public
 */
export interface StageHistoryEntry {
  revision: string;
  author: string;
  date: string;
  message: string;
  /** Every Service's digest after the commit. */
  services: Record<string, string>;
  /** The Services whose digest the commit changed, against the record's previous commit. */
  changes: ReleaseChange[];
  pullRequest?: { number: number; url: string };
}

/** One approval of a promotion's current PR head. @public */
export interface HeadApproval {
  /** Who approved: their user ref. */
  approver: string;
  /** ISO time it was given. */
  at: string;
  /** A release-approver's approval counts towards the quorum; an incident commander's is the extra one an incident asks for. */
  role: 'release-approver' | 'incident-commander';
}

/**
 * Where a promotion into an approval stage stands against what it needs, for
 * the PR head it is at now (approvals of an earlier head were voided).
 *
 * @public
 */
export interface PromotionApproval {
  /** The PR head the approvals are of. */
  headSha: string;
  /** The approvals of that head, oldest first. */
  approvals: HeadApproval[];
  /** How many distinct release-approvers the stage needs (its quorum). */
  quorum: number;
  /** The distinct release-approvers counting towards it; the requester only where approvers need not differ. */
  quorumApprovers: string[];
  /** How far it is ("1 of 2"). */
  progress: string;
  /** Enough release-approvers approved it. */
  quorumMet: boolean;
  /** An open incident asks for an incident commander's approval as well. */
  commanderNeeded: boolean;
}

/**
 * The write queue of bulk work (the auto-promoter's promotions), as
 * `GET /write-queue` answers it.
 *
 * @public
 */
export interface WriteQueueState {
  /** Promotions waiting for their PR to be opened. */
  waiting: number;
  /** ISO time the oldest of them joined the queue. */
  oldestQueuedAt?: string;
  /** While some wait: why the next PR is not open yet (queueOpening). */
  waitingFor?: 'turn' | 'github-minute-write-limit' | 'github-hourly-write-limit';
  /** While GitHub's write limit holds them: ISO time the next write may go. */
  opensAt?: string;
}
