import { digest, shopLadder, shopPromotion } from '../../__testUtils__/ladders';
import { carriesExactly, livePromotionInto } from './livePromotion';

describe('livePromotionInto', () => {
  it('finds the promotion in flight into a stage, not settled ones nor other stages', () => {
    const ladder = shopLadder();
    const live = shopPromotion({ id: 'live', status: 'awaiting-approval' });
    ladder.promotions = [
      shopPromotion({ id: 'merged', status: 'merged' }),
      shopPromotion({ id: 'into-test', toStage: 'test', fromStage: 'dev' }),
      live,
    ];
    expect(livePromotionInto(ladder, 'prod')).toBe(live);
    expect(livePromotionInto(ladder, 'dev')).toBeUndefined();
  });
});

describe('carriesExactly', () => {
  const promotion = shopPromotion({ services: { storefront: digest('d'), cart: digest('e') } });
  it.each([
    [{ storefront: digest('d'), cart: digest('e') }, true],
    [{ storefront: digest('d') }, false],
    [{ storefront: digest('d'), cart: digest('f') }, false],
    [{ storefront: digest('d'), cart: digest('e'), checkout: digest('a') }, false],
  ])('%p → %p', (services, expected) => {
    expect(carriesExactly(promotion, services)).toBe(expected);
  });
});
