export { PromotionsOverview } from './PromotionsOverview';
export { PromotionsPage } from './PromotionsPage';
export { PromotionsPageContent } from './PromotionsPageContent';
