import { ProductChange, ProductChangeRefusal } from '@refplat/plugin-promotions-common';
import { productChangeRefusalText } from './productChangeRules';

const APPROVERS = ['group:default/release-approvers'];

describe('productChangeRefusalText', () => {
  it.each<[ProductChangeRefusal, ProductChange, string]>([
    [
      { rule: 'not-an-owner', owners: ['group:default/beta'] },
      'place-hold',
      "only the Product's owners (group:default/beta) and release-approvers (group:default/release-approvers) may place holds",
    ],
    [
      { rule: 'no-owner' },
      'request-promotion',
      'the Product has no owner in the catalog (a System annotated with it, with spec.owner); only release-approvers (group:default/release-approvers) may request promotions',
    ],
    [
      { rule: 'approval-stage-hold' },
      'lift-hold',
      'lifting a hold at an approval stage needs a release-approver (group:default/release-approvers)',
    ],
    [
      { rule: 'owners-unknown' },
      'request-rollback',
      'the catalog could not say who owns the Product; only release-approvers (group:default/release-approvers) may request rollbacks until it can',
    ],
  ])('%j, %s', (refusal, change, text) => {
    expect(productChangeRefusalText(refusal, change, APPROVERS)).toBe(text);
  });
});
