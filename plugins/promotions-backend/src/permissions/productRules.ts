import {
  createConditionExports,
  createPermissionResourceRef,
  createPermissionRule,
} from '@backstage/plugin-permission-node';
import {
  PROMOTIONS_PRODUCT_CLAIMS_JSON_SCHEMA,
  PROMOTIONS_PRODUCT_RESOURCE_TYPE,
  PROMOTIONS_PRODUCT_RULE_NAMES,
  PromotionsProductClaimsParams,
  PromotionsProductQuery,
  PromotionsProductResource,
  matchesPromotionsProductQuery,
  promotionsProductClaimsIssues,
} from '@refplat/plugin-promotions-common';

/**
 * The `promotions-product` resource type of the promotions plugin: a
 * Product, loaded by its ref `team/product`.
 *
 * @public
 */
export const promotionsProductResourceRef = createPermissionResourceRef<
  PromotionsProductResource,
  PromotionsProductQuery
>().with({ pluginId: 'promotions', resourceType: PROMOTIONS_PRODUCT_RESOURCE_TYPE });

/**
 * A Standard Schema (validation plus JSON Schema) for the rules' params,
 * written out rather than taken from zod: the package's zod (3.x) has no
 * JSON Schema conversion the permission framework accepts without the
 * deprecated zod-v3 path.
 */
const claimsParamsSchema = {
  '~standard': {
    version: 1 as const,
    vendor: 'refplat',
    validate: (value: unknown) => {
      const issues = promotionsProductClaimsIssues(value);
      return issues.length > 0
        ? { issues: issues.map(message => ({ message })) }
        : { value: value as PromotionsProductClaimsParams };
    },
    jsonSchema: {
      input: () => ({ ...PROMOTIONS_PRODUCT_CLAIMS_JSON_SCHEMA }),
      output: () => ({ ...PROMOTIONS_PRODUCT_CLAIMS_JSON_SCHEMA }),
    },
  },
};

const claimsRule = (name: string, description: string, key: PromotionsProductQuery['key']) =>
  createPermissionRule<typeof promotionsProductResourceRef, PromotionsProductClaimsParams>({
    name,
    description,
    resourceRef: promotionsProductResourceRef,
    paramsSchema: claimsParamsSchema,
    apply: (resource, { claims }) => matchesPromotionsProductQuery(resource, { key, anyOf: claims }),
    toQuery: ({ claims }) => ({ key, anyOf: claims }),
  });

/**
 * The rules of the `promotions-product` resource type, which the plugin
 * registers; a policy uses them through {@link promotionsProductConditions}.
 *
 * @public
 */
export const promotionsProductPermissionRules = {
  isProductOwner: claimsRule(
    PROMOTIONS_PRODUCT_RULE_NAMES.isProductOwner,
    "Allow callers who own the Product: one of the claims is an owner (spec.owner) of the Product's System in the catalog",
    'owners',
  ),
  isInApproverGroups: claimsRule(
    PROMOTIONS_PRODUCT_RULE_NAMES.isInApproverGroups,
    'Allow release-approvers: one of the claims is in promotions.approval.approvers',
    'approvers',
  ),
};

const { conditions, createConditionalDecision } = createConditionExports({
  resourceRef: promotionsProductResourceRef,
  rules: promotionsProductPermissionRules,
});

/**
 * Conditions on a Product for a permission policy, e.g.
 * `promotionsProductConditions.isProductOwner({ claims: user.info.ownershipEntityRefs })`.
 *
 * @public
 */
export const promotionsProductConditions = conditions;

/**
 * Wraps {@link promotionsProductConditions} into the conditional decision a
 * policy returns for a promotions permission.
 *
 * @public
 */
export const createPromotionsProductConditionalDecision = createConditionalDecision;
