/**
 * What the Gate knows about one of its commit statuses (`promotions/health`, a guard's) on a PR
 * head it has judged.
 *
 * @public
 */
export interface CommitStatusOnHead {
  /** The Gate merges the PR in this run. */
  merging: boolean;
  /** The head shows another state for this context, which the verdict now contradicts. */
  correctsHead: boolean;
  /** A release-approver lifted a guard's block: the status records the override. */
  recordsOverride?: boolean;
  /**
   * The base branch requires this context before a merge (branch protection or a ruleset);
   * undefined when that could not be read.
   */
  required: boolean | undefined;
}

/**
 * Whether the Gate writes a verdict as a commit status. A PR left open shows each verdict. A PR
 * merging in this run needs no status saying it may (the merge commit's message says why; each
 * write spends one of GitHub's 500 content writes an hour, issue 48), unless the status corrects
 * what the head shows, records an override, or is one GitHub requires before it merges (not
 * known whether it is: written, since a missing one would refuse the merge).
 *
 * @public
 */
export function writesCommitStatus(status: CommitStatusOnHead): boolean {
  if (!status.merging) return true;
  return status.correctsHead || status.recordsOverride === true || status.required !== false;
}
