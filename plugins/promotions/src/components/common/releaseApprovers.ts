/** Who a stage's quorum asks for: "a release-approver", or "2 release-approvers" where it needs more than one. */
export function releaseApprovers(quorum: number | undefined): string {
  return quorum && quorum > 1 ? `${quorum} release-approvers` : 'a release-approver';
}
