export { EntityServicePromotionsCard } from './EntityServicePromotionsCard';
