export { EntityPromotionHistoryCard } from './EntityPromotionHistoryCard';
