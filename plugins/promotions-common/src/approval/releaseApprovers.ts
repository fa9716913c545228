/**
 * Who a stage's quorum asks for, in the words the dialogs and the Release PR
 * use: "a release-approver", or "2 release-approvers" where it needs more than one.
 *
 * @public
 */
export function releaseApprovers(quorum: number | undefined): string {
  return quorum && quorum > 1 ? `${quorum} release-approvers` : 'a release-approver';
}
