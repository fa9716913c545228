/** One release-approver's approval of a PR head. @public */
export interface RecordedApproval {
  approver: string;
  /** The PR head approved. */
  sha: string;
}

/** @public */
export interface QuorumProgress {
  /** Distinct approvers of `headSha`, in the order they approved, never the excluded one (the requester). */
  approvers: string[];
  needed: number;
  met: boolean;
  /** "1 of 2", as the PR's status and the promotion show it. */
  progress: string;
}

/**
 * How far a promotion is towards its quorum: distinct approvers of the head
 * it is at now (an approval of an earlier head does not count), none of them
 * `excluded`: the requester where approvers must differ from them
 * (`promotions.approval.requireDistinctApprover`, the default), nobody where not.
 *
 * @public
 */
export function quorumProgress(
  approvals: RecordedApproval[],
  headSha: string,
  excluded: string | undefined,
  needed: number,
): QuorumProgress {
  const approvers = [
    ...new Set(approvals.filter(a => a.sha === headSha && a.approver !== excluded).map(a => a.approver)),
  ];
  return {
    approvers,
    needed,
    met: approvers.length >= needed,
    progress: `${Math.min(approvers.length, needed)} of ${needed}`,
  };
}
