import { parseEntityRef, stringifyEntityRef } from '@backstage/catalog-model';
import { PromotionEvent } from '../promotions/types';
import { RecordedApproval } from './quorum';

/**
 * On a System entity: the Groups whose members may approve the Product's
 * promotions, comma-separated refs (`group:default/payments-release`).
 *
 * @public
 */
export const APPROVERS_ANNOTATION = 'refplat.org/approvers';

/**
 * On a System entity: per approval stage, how many distinct approvers the
 * Product's promotions need, comma-separated `stage=N` (`prod=2`).
 *
 * @public
 */
export const APPROVAL_QUORUM_ANNOTATION = 'refplat.org/approval-quorum';

/**
 * `promotions.approval.productApprovers`: whether a Product's own approvers
 * (its System's `refplat.org/approvers`) approve besides the global ones
 * (`add`) or instead of them (`replace`).
 *
 * @public
 */
export type ProductApproversMode = 'add' | 'replace';

/** @public */
export const PRODUCT_APPROVERS_MODES: ProductApproversMode[] = ['add', 'replace'];

/**
 * Who may approve a Product's promotions and how many of them each approval
 * stage needs.
 *
 * @public
 */
export interface ApprovalPolicy {
  /** Group refs whose members may approve. */
  approvers: string[];
  /** Per approval stage, the number of distinct approvers needed; 1 where absent. */
  quorum: Record<string, number>;
}

/**
 * A Product's approval policy, and what was wrong with its annotations
 * (those parts are ignored, the rest applies).
 *
 * @public
 */
export interface ProductApprovalPolicy extends ApprovalPolicy {
  problems: string[];
}

/** The global policy from `promotions.approval`, as a Product's annotations refine it. @public */
export interface GlobalApprovalPolicy extends ApprovalPolicy {
  /** `promotions.approval.stages`: a quorum for any other stage means nothing. */
  stages: string[];
  /** `promotions.approval.productApprovers`. */
  productApprovers: ProductApproversMode;
}

/**
 * Parses `refplat.org/approvers`: Group refs, the kind and namespace
 * optional (`payments-release` is `group:default/payments-release`).
 * A ref that does not parse or names another kind is left out, with a
 * problem saying so.
 *
 * @public
 */
export function parseApproversAnnotation(value: string | undefined): { approvers: string[]; problems: string[] } {
  const approvers: string[] = [];
  const problems: string[] = [];
  for (const item of (value ?? '').split(',').map(part => part.trim()).filter(Boolean)) {
    let ref;
    try {
      ref = parseEntityRef(item, { defaultKind: 'group', defaultNamespace: 'default' });
    } catch (error) {
      problems.push(`${APPROVERS_ANNOTATION}: '${item}' is not an entity ref (${(error as Error).message}); ignored`);
      continue;
    }
    if (ref.kind.toLocaleLowerCase('en-US') !== 'group') {
      problems.push(`${APPROVERS_ANNOTATION}: '${item}' is not a Group; ignored`);
      continue;
    }
    const normalized = stringifyEntityRef({ ...ref, kind: 'group' });
    if (!approvers.includes(normalized)) approvers.push(normalized);
  }
  return { approvers, problems };
}

/**
 * Parses `refplat.org/approval-quorum` (`prod=2`, `staging=1,prod=3`). An
 * entry for a stage that is not an approval stage, without a whole number of
 * at least 1, or repeating a stage is ignored, with a problem saying so: a
 * typo must not silently lower or raise the bar.
 *
 * @public
 */
export function parseApprovalQuorumAnnotation(
  value: string | undefined,
  approvalStages: string[],
): { quorum: Record<string, number>; problems: string[] } {
  const quorum: Record<string, number> = {};
  const problems: string[] = [];
  for (const entry of (value ?? '').split(',').map(part => part.trim()).filter(Boolean)) {
    const match = /^([^=\s]+)\s*=\s*(\S+)$/.exec(entry);
    if (!match) {
      problems.push(`${APPROVAL_QUORUM_ANNOTATION}: '${entry}' is not stage=N; ignored`);
      continue;
    }
    const [, stage, count] = match;
    const needed = Number(count);
    if (!approvalStages.includes(stage)) {
      problems.push(
        `${APPROVAL_QUORUM_ANNOTATION}: '${stage}' is not an approval stage (${approvalStages.join(', ')}); ignored`,
      );
    } else if (!/^\d+$/.test(count) || needed < 1) {
      problems.push(`${APPROVAL_QUORUM_ANNOTATION}: ${stage}=${count} is not a whole number of at least 1; ignored`);
    } else if (stage in quorum) {
      problems.push(`${APPROVAL_QUORUM_ANNOTATION}: ${stage} is given twice; the first, ${quorum[stage]}, applies`);
    } else {
      quorum[stage] = needed;
    }
  }
  return { quorum, problems };
}

/**
 * A Product's approval policy: the global one refined by its System's
 * annotations. The Product's approvers join the global ones (`add`) or take
 * their place (`replace`; a Product naming none keeps the global ones, so
 * nobody is left without approvers). Its quorum overrides the global one per
 * stage.
 *
 * @public
 */
export function productApprovalPolicy(
  global: GlobalApprovalPolicy,
  annotations: Record<string, string> | undefined,
): ProductApprovalPolicy {
  const own = parseApproversAnnotation(annotations?.[APPROVERS_ANNOTATION]);
  const quorum = parseApprovalQuorumAnnotation(annotations?.[APPROVAL_QUORUM_ANNOTATION], global.stages);
  return {
    approvers: combinedApprovers(global, own.approvers),
    quorum: { ...global.quorum, ...quorum.quorum },
    problems: [...own.problems, ...quorum.problems],
  };
}

/** The global approvers with a Product's own, as `productApprovers` says. */
function combinedApprovers(global: GlobalApprovalPolicy, own: string[]): string[] {
  if (own.length === 0) return global.approvers;
  if (global.productApprovers === 'replace') return own;
  return [...global.approvers, ...own.filter(ref => !global.approvers.some(g => sameRef(g, ref)))];
}

/** Entity refs compare case-insensitively in Backstage. */
function sameRef(a: string, b: string): boolean {
  return a.toLocaleLowerCase('en-US') === b.toLocaleLowerCase('en-US');
}

/**
 * Whether someone with these ownership claims (their User and Groups) is one
 * of the policy's approvers.
 *
 * @public
 */
export function isApprover(claims: string[], policy: Pick<ApprovalPolicy, 'approvers'>): boolean {
  return policy.approvers.some(group => claims.some(claim => sameRef(group, claim)));
}

/** How many distinct approvers a promotion into `stage` needs. @public */
export function quorumNeeded(policy: Pick<ApprovalPolicy, 'quorum'>, stage: string): number {
  return policy.quorum[stage] ?? 1;
}

/**
 * The approvals in a promotion's trail, each for the PR head it was given
 * on (an `approved` event's detail).
 *
 * @public
 */
export function recordedApprovals(events: Pick<PromotionEvent, 'type' | 'actor' | 'detail'>[]): RecordedApproval[] {
  return events
    .filter(event => event.type === 'approved' && event.detail)
    .map(event => ({ approver: event.actor, sha: event.detail! }));
}
