import { ProductChange, ProductChangeRefusal } from '@refplat/plugin-promotions-common';

const DOING: Record<ProductChange, string> = {
  'request-promotion': 'request promotions',
  'request-rollback': 'request rollbacks',
  'place-hold': 'place holds',
  'lift-hold': 'lift holds',
};

/**
 * A refused change (decideProductChange, in -common) in the words of a 403:
 * refs as they are, for the API clients, the CLI and the audit that read it.
 */
export function productChangeRefusalText(
  refusal: ProductChangeRefusal,
  change: ProductChange,
  approvers: string[],
): string {
  switch (refusal.rule) {
    case 'approval-stage-hold':
      return `lifting a hold at an approval stage needs a release-approver (${approvers.join(', ')})`;
    case 'not-an-owner':
      return `only the Product's owners (${refusal.owners.join(', ')}) and release-approvers (${approvers.join(', ')}) may ${DOING[change]}`;
    case 'no-owner':
      return `the Product has no owner in the catalog (a System annotated with it, with spec.owner); only release-approvers (${approvers.join(', ')}) may ${DOING[change]}`;
    case 'owners-unknown':
      return `the catalog could not say who owns the Product; only release-approvers (${approvers.join(', ')}) may ${DOING[change]} until it can`;
    default:
      throw new Error(`Unknown refusal ${JSON.stringify(refusal)}`);
  }
}
