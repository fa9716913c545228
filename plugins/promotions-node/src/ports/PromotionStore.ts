import type {
  GuardOverride,
  Promotion,
  PromotionEvent,
  PromotionEventType,
  PromotionStatus,
} from '@refplat/plugin-promotions-common';

/**
 * A verdict the Gate published for a PR head (the `promotions/health` status, a guard's): the
 * commit status's state and description, and the head it is about.
 *
 * @public
 */
export interface PublishedVerdict {
  state: 'success' | 'pending' | 'failure' | 'error';
  /** The PR head the verdict is about. */
  sha: string;
  description: string;
}

/**
 * The guards' verdicts last published on a PR head, by guard name.
 *
 * @public
 */
export type PublishedGuardVerdicts = Record<string, PublishedVerdict>;

/**
 * A promotion as stored: the contract's shape plus what the Gate needs.
 *
 * @public
 */
export interface PromotionRecord extends Promotion {
  fingerprint: string;
  /** Written with the promotion, before the branch is created. */
  branch?: string;
  /** Blob sha of the target Release file the PR was built on. */
  baseBlobSha?: string;
  /** The last health verdict the Gate judged for the PR head (written as `promotions/health` where it shows). */
  healthState?: PublishedVerdict;
  /** While no PR is recorded: when the opening request's lease ends. */
  leaseExpiresAt?: string;
  /** The PR head whose content the plugin wrote or last verified. */
  headSha?: string;
  /** The PR head the approval was given for. */
  approvedSha?: string;
  /** The guards' verdicts last judged for the PR head. */
  guardState?: PublishedGuardVerdicts;
  /** A release-approver's override of the guards' blocks. */
  guardOverride?: GuardOverride;
}

/**
 * A promotion about to be recorded: what the requester decides, not what the Gate learns later.
 *
 * @public
 */
export type NewPromotion = Omit<
  PromotionRecord,
  'createdAt' | 'updatedAt' | 'pullRequest' | 'status' | 'healthState' | 'headSha' | 'approvedSha' | 'guardState'
> & { status: PromotionStatus };

/**
 * The fields a transition may change; a key present with `undefined` clears the field.
 *
 * @public
 */
export type PromotionChanges = Partial<
  Pick<
    PromotionRecord,
    | 'status'
    | 'statusReason'
    | 'approvedBy'
    | 'approvedSha'
    | 'pullRequest'
    | 'branch'
    | 'healthState'
    | 'headSha'
    | 'leaseExpiresAt'
    | 'queuedAt'
    | 'guardState'
    | 'guardOverride'
    | 'rejection'
  >
>;

/**
 * What a conditional update requires of the stored promotion. Replicas and
 * concurrent requests act on what they read a moment ago; the update (and
 * its audit event) happens only if the promotion is still in that state.
 * A `null` requires the field to be unset; `undefined` does not look at it.
 *
 * @public
 */
export interface PromotionExpectation {
  status?: PromotionStatus[];
  /** No PR is recorded yet. */
  noPullRequest?: boolean;
  /** The opener's lease (if any) ended at or before this ISO time. */
  leaseEndedBy?: string;
  /** In the write queue (`queuedAt` set), or not. */
  queued?: boolean;
  healthState?: PublishedVerdict | null;
  headSha?: string | null;
  approvedSha?: string | null;
  guardState?: PublishedGuardVerdicts | null;
}

/**
 * An event of a promotion's audit trail, as the domain records it (the store adds the time).
 *
 * @public
 */
export interface PromotionEventInput {
  type: PromotionEventType;
  actor: string;
  detail?: string;
}

/**
 * Thrown by `PromotionStore.insertLive` when another live promotion holds the target stage.
 *
 * @public
 */
export class OpenPromotionConflictError extends Error {
  constructor(readonly existing: PromotionRecord) {
    super(`A promotion into ${existing.toStage} is already open`);
  }
}

/**
 * Decides a transition from a promotion and its trail (see `PromotionStore.decideTransition`).
 *
 * @public
 */
export type TransitionDecider = (
  current: PromotionRecord,
  events: PromotionEvent[],
) => { changes: PromotionChanges; event: PromotionEventInput } | undefined;

/**
 * The promotions and their audit trails. At most one promotion per target
 * stage (team, product, toStage) is live at a time.
 *
 * @public
 */
export interface PromotionStore {
  /**
   * Inserts a live promotion, atomically closing `supersedes` first when it
   * is still live (returned as it was closed, with any PR it had). Throws
   * OpenPromotionConflictError when another live promotion holds the same
   * target stage (including one inserted concurrently).
   */
  insertLive(
    promotion: NewPromotion,
    actor: string,
    supersedes?: { id: string; reason: string },
  ): Promise<{ record: PromotionRecord; superseded?: PromotionRecord }>;
  get(id: string): Promise<PromotionRecord | undefined>;
  findLive(team: string, product: string, toStage: string): Promise<PromotionRecord | undefined>;
  /** The newest promotion that wrote `branch`, live or not. */
  findByBranch(branch: string): Promise<PromotionRecord | undefined>;
  /** Every live promotion, oldest first. */
  listLive(): Promise<PromotionRecord[]>;
  /** The Product's promotions, newest first. */
  listForProduct(team: string, product: string, limit: number): Promise<PromotionRecord[]>;
  /**
   * Compare-and-set: applies `changes` and records `event` only if the
   * promotion meets `expected`; undefined when it did not (someone else got
   * there first), so an event is never recorded twice.
   */
  transition(
    id: string,
    expected: PromotionExpectation,
    changes: PromotionChanges,
    event?: PromotionEventInput,
  ): Promise<PromotionRecord | undefined>;
  /**
   * A transition decided from the promotion and its trail as they are inside
   * one database transaction, with the promotion's row locked (PostgreSQL's
   * FOR UPDATE; SQLite has one writer at a time): concurrent deciders, such
   * as two approvers on two replicas, decide one after the other, each seeing
   * the other's event, where reading first and then calling `transition`
   * would let both decide from the same past. `decide` answers the change to
   * make, or undefined for none (then this answers undefined); what it throws
   * rolls the transaction back and is thrown. Answers the promotion as the
   * decision left it, whatever happened after.
   */
  decideTransition(id: string, decide: TransitionDecider): Promise<PromotionRecord | undefined>;
  /** The promotion's audit trail, oldest first. */
  listEvents(id: string): Promise<PromotionEvent[]>;
}
