import { GuardVerdict, NamedGuardVerdict } from './types';

/** A release-approver's override of the guards' blocks, with their reason. @public */
export interface GuardOverride {
  by: string;
  reason: string;
}

/** @public */
export interface GuardsDecision {
  verdict: 'allow' | 'block' | 'needs-approval';
  /** The verdicts that decided it (the blocks, or those needing approval). */
  deciding: NamedGuardVerdict[];
}

/** Whether a release-approver's override lifts this verdict's block (a guard may say it does not). @public */
export function overrideLifts(verdict: GuardVerdict): boolean {
  return verdict.overridable !== false;
}

/**
 * All guards' verdicts as one: any block blocks (unless overridden, where
 * its guard lets an override lift it), else any needs-approval needs
 * approval, else allow. An override lifts blocks only: what needs approval
 * still does.
 *
 * @public
 */
export function decideGuards(verdicts: NamedGuardVerdict[], override?: GuardOverride): GuardsDecision {
  const blocks = verdicts.filter(v => v.verdict === 'block');
  const standing = override ? blocks.filter(v => !overrideLifts(v)) : blocks;
  if (standing.length) return { verdict: 'block', deciding: standing };
  const approvals = verdicts.filter(v => v.verdict === 'needs-approval');
  if (approvals.length) return { verdict: 'needs-approval', deciding: approvals };
  return { verdict: 'allow', deciding: [] };
}

/** The reason a person reads in a 409 or on the promotion: each deciding guard and why. @public */
export function guardsReason(decision: GuardsDecision): string {
  return decision.deciding.map(v => `${v.guard}: ${v.reason}`).join('; ');
}

/** How a verdict shows as a commit status on the PR head. @public */
export function guardCommitStatus(
  verdict: NamedGuardVerdict,
  override?: GuardOverride,
): { state: 'success' | 'pending' | 'failure'; description: string } {
  if (verdict.verdict === 'allow') return { state: 'success', description: verdict.reason };
  if (verdict.verdict === 'needs-approval') return { state: 'pending', description: verdict.reason };
  if (override && overrideLifts(verdict)) {
    return { state: 'success', description: `Overridden by ${override.by}: ${override.reason}` };
  }
  return { state: 'failure', description: verdict.reason };
}
