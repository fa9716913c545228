export { EntityPromotionLadderCard } from './EntityPromotionLadderCard';
