/**
 * What a guard decides about a promotion: let it through, stop it (until
 * `until`, when the block ends on its own), or let it through only once a
 * release-approver approved it.
 *
 * @public
 */
export type GuardVerdictKind = 'allow' | 'block' | 'needs-approval';

/** @public */
export interface GuardVerdict {
  verdict: GuardVerdictKind;
  /** Shown to people: on the PR's commit status, in the checklist and the 409. */
  reason: string;
  /** ISO time at which a block ends on its own (e.g. the end of a freeze window). */
  until?: string;
  /**
   * `false`: a release-approver's override does not lift this block (say,
   * provenance in `enforce`, which admission refuses anyway). Absent: it does.
   */
  overridable?: boolean;
}

/**
 * The promotion a guard judges: what moves where, for whom. Plain data, so
 * guards can be tested without a backend.
 *
 * @public
 */
export interface GuardedPromotion {
  /** The stored promotion's id once there is one (in the Gate); absent for a request, the auto-promoter and the ladder. */
  id?: string;
  team: string;
  product: string;
  kind: 'promotion' | 'rollback';
  fromStage: string;
  toStage: string;
  /** Service name → the digest the promotion carries. */
  services: Record<string, string>;
  requestedBy: string;
}

/**
 * Where the guards run: a person's request, the Gate before a merge, the
 * auto-promoter before it requests, or the ladder showing what a request
 * would meet now (`preview`: no one requested it, `requestedBy` is empty).
 *
 * @public
 */
export type GuardPhase = 'request' | 'gate' | 'auto-promote' | 'preview';

/** @public */
export interface GuardContext {
  phase: GuardPhase;
  now: Date;
  /**
   * The Gate is about to merge (phase `gate`): a guard that keeps what it
   * learnt (provenance) checks afresh, as admission will at the moment of use.
   */
  beforeMerge?: boolean;
}

/** One guard's verdict, named, as published on the PR and listed on the ladder. @public */
export interface NamedGuardVerdict extends GuardVerdict {
  guard: string;
}

/** The commit status context a guard's verdict is published under. @public */
export function guardStatusContext(guard: string): string {
  return `promotions/guard/${guard}`;
}
