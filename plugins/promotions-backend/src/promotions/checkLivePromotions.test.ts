import { InMemoryPromotionStore } from '@refplat/plugin-promotions-node/testUtils';
import type { NewPromotion } from '@refplat/plugin-promotions-node';
import { LIVE_STATUSES } from '../database/PromotionStore';
import { liveProductPromotionsCheck } from './checkLivePromotions';

const promotion = (id: string, product: string, toStage: string): NewPromotion =>
  ({
    id,
    team: 'alpha',
    product,
    fromStage: 'dev',
    toStage,
    services: { api: `sha256:${'b'.repeat(64)}` },
    previousServices: { api: `sha256:${'a'.repeat(64)}` },
    fingerprint: `${product}-${toStage}`,
    kind: 'promotion',
    status: 'open',
    requestedBy: 'user:default/alice',
    baseBlobSha: 'base',
    branch: `promotions/${id}`,
  }) as NewPromotion;

describe('liveProductPromotionsCheck', () => {
  it("has the Gate check each live promotion of the Product, and only the Product's", async () => {
    const store = new InMemoryPromotionStore();
    await store.insertLive(promotion('shop-test', 'shop', 'test'), 'user:default/alice');
    await store.insertLive(promotion('shop-uat', 'shop', 'uat'), 'user:default/alice');
    await store.insertLive(promotion('cart-test', 'cart', 'test'), 'user:default/alice');
    await store.decideTransition('shop-uat', () => ({
      changes: { status: 'merged' },
      event: { type: 'merged', actor: 'promotions-bot' },
    }));
    const checked: string[] = [];

    const checkLivePromotions = liveProductPromotionsCheck({
      livePromotions: async product =>
        (await store.listForProduct(product.team, product.product, 50)).filter(p => LIVE_STATUSES.includes(p.status)),
      check: async id => {
        checked.push(id);
      },
    });
    await checkLivePromotions({ team: 'alpha', product: 'shop' });

    expect(checked).toEqual(['shop-test']);
  });
});
