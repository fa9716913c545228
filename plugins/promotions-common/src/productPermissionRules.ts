/**
 * The `promotions-product` resource as the permission framework sees it,
 * and the pure decisions behind its rules. The backend wraps these in
 * permission rules; a policy names them in conditional decisions, so the
 * names and the params shape are part of the public contract.
 */

/**
 * A Product as the permission rules see it, loaded for a resource ref
 * `team/product`.
 *
 * @public
 */
export interface PromotionsProductResource {
  /** The resource ref, `team/product`. */
  product: string;
  /** Owners of the Product's System in the catalog (`spec.owner`); none when it has no System. */
  owners: string[];
  /** `promotions.approval.approvers`. */
  approvers: string[];
}

/**
 * Params of both rules: the caller's ownership claims, as a policy reads
 * them from `user.info.ownershipEntityRefs`.
 *
 * @public
 */
export type PromotionsProductClaimsParams = { claims: string[] };

/**
 * The names the rules carry in a conditional decision.
 *
 * @public
 */
export const PROMOTIONS_PRODUCT_RULE_NAMES = {
  isProductOwner: 'IS_PRODUCT_OWNER',
  isInApproverGroups: 'IS_IN_APPROVER_GROUPS',
} as const;

/**
 * A rule in query form: matches a Product when one of `anyOf` is among its
 * `key` refs.
 *
 * @public
 */
export type PromotionsProductQuery = { key: 'owners' | 'approvers'; anyOf: string[] };

/**
 * Entity refs compare case-insensitively in Backstage, so `group:default/Alpha`
 * owns what `group:default/alpha` owns.
 */
const same = (a: string, b: string) => a.toLocaleLowerCase('en-US') === b.toLocaleLowerCase('en-US');

/**
 * Whether a Product matches a rule's query. Both rules apply through this,
 * so a rule's `apply` and its `toQuery` cannot disagree.
 *
 * @public
 */
export function matchesPromotionsProductQuery(
  resource: PromotionsProductResource,
  query: PromotionsProductQuery,
): boolean {
  return resource[query.key].some(ref => query.anyOf.some(claim => same(ref, claim)));
}

/**
 * The JSON Schema (draft-07) of {@link PromotionsProductClaimsParams}, which
 * the permission backend's metadata endpoint publishes for policy editors.
 *
 * @public
 */
export const PROMOTIONS_PRODUCT_CLAIMS_JSON_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    claims: {
      type: 'array',
      items: { type: 'string' },
      description: "The caller's ownership entity refs (user.info.ownershipEntityRefs)",
    },
  },
  required: ['claims'],
  additionalProperties: false,
} as const;

/**
 * What is wrong with params given to a rule (none when they are
 * {@link PromotionsProductClaimsParams}): a policy's typo must fail loudly,
 * not match nothing.
 *
 * @public
 */
export function promotionsProductClaimsIssues(params: unknown): string[] {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    return ['params must be an object {claims: string[]}'];
  }
  const { claims, ...rest } = params as Record<string, unknown>;
  const issues: string[] = [];
  if (!Array.isArray(claims) || !claims.every(claim => typeof claim === 'string')) {
    issues.push('claims must be an array of entity refs (strings)');
  }
  for (const key of Object.keys(rest)) issues.push(`unknown param '${key}'`);
  return issues;
}
