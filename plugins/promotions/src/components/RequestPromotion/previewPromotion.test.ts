import { digest, shopLadder } from '../../__testUtils__/ladders';
import { previewPromotion } from './previewPromotion';

describe('previewPromotion', () => {
  it('lists each service that changes with its old and new digest, and why the others stay', () => {
    const ladder = shopLadder();
    ladder.stages[1].services.storefront.digest = digest('d');
    const preview = previewPromotion(ladder, 'prod');

    expect(preview).toMatchObject({ fromStage: 'test', toStage: 'prod', requiresApproval: true });
    expect(preview.changes).toEqual([
      { service: 'storefront', current: digest('b'), next: digest('d') },
    ]);
    expect(preview.left).toEqual([
      { service: 'cart', reason: "prod already carries cart's digest from test" },
    ]);
    expect(preview.refusal).toBeUndefined();
  });

  it('changes nothing and says why when the source is not healthy', () => {
    const preview = previewPromotion(shopLadder(), 'test', 'storefront');
    expect(preview.changes).toEqual([]);
    expect(preview.refusal).toMatch(/storefront is not healthy in dev/);
    expect(preview.left.map(entry => entry.service)).toEqual(['storefront']);
  });

  it('has no source for the first stage', () => {
    const preview = previewPromotion(shopLadder(), 'dev');
    expect(preview.fromStage).toBeUndefined();
    expect(preview.refusal).toMatch(/first stage/);
  });
});
