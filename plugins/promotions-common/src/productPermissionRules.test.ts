import {
  PromotionsProductResource,
  matchesPromotionsProductQuery,
  promotionsProductClaimsIssues,
} from './productPermissionRules';

const SHOP: PromotionsProductResource = {
  product: 'alpha/shop',
  owners: ['group:default/alpha'],
  approvers: ['group:default/release-approvers'],
};
const ORPHAN: PromotionsProductResource = { product: 'gamma/lost', owners: [], approvers: SHOP.approvers };

describe('matchesPromotionsProductQuery', () => {
  it.each([
    ['an owner group', SHOP, 'owners', ['user:default/bob', 'group:default/alpha'], true],
    ['an owner group in another case', SHOP, 'owners', ['group:default/Alpha'], true],
    ['another team', SHOP, 'owners', ['user:default/bob', 'group:default/beta'], false],
    ['no claims', SHOP, 'owners', [], false],
    ['a Product without owners', ORPHAN, 'owners', ['group:default/alpha'], false],
    ['an approver group', SHOP, 'approvers', ['group:default/release-approvers'], true],
    ['an owner, asked about approvers', SHOP, 'approvers', ['group:default/alpha'], false],
  ] as const)('%s', (_, resource, key, claims, expected) => {
    expect(matchesPromotionsProductQuery(resource, { key, anyOf: [...claims] })).toBe(expected);
  });
});

describe('promotionsProductClaimsIssues', () => {
  it.each([
    [{ claims: ['group:default/alpha'] }, []],
    [{ claims: [] }, []],
    [{}, ['claims must be an array of entity refs (strings)']],
    [{ claims: 'group:default/alpha' }, ['claims must be an array of entity refs (strings)']],
    [{ claims: [1] }, ['claims must be an array of entity refs (strings)']],
    [{ claims: [], claim: [] }, ["unknown param 'claim'"]],
    [undefined, ['params must be an object {claims: string[]}']],
    [['group:default/alpha'], ['params must be an object {claims: string[]}']],
  ])('%p → %p', (params, issues) => {
    expect(promotionsProductClaimsIssues(params)).toEqual(issues);
  });
});
