/**
 * Backend plugin for promotion ladders: Release records from the platform
 * repo, ArgoCD health, and gated Release PRs.
 *
 * @packageDocumentation
 */
export { promotionsPlugin as default } from './plugin';
export {
  promotionsProductResourceRef,
  promotionsProductPermissionRules,
  promotionsProductConditions,
  createPromotionsProductConditionalDecision,
} from './permissions/productRules';
