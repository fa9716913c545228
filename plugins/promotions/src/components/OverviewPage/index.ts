export { PromotionsOverview } from './PromotionsOverview';
export { PromotionsPage } from './PromotionsPage';
