/**
 * Scaffolder backend module: the `promotions:request` action, which requests
 * a promotion as the template's user and can wait until it is merged or healthy.
 *
 * @packageDocumentation
 */
export { scaffolderModulePromotions as default } from './module';
export { createPromotionsRequestAction } from './actions/requestPromotion';
export type { PromotionsRequestActionOptions } from './actions/requestPromotion';
