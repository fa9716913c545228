import type { ProductRef } from '@refplat/plugin-promotions-common';
import { FakeHealthSource } from '@refplat/plugin-promotions-node/testUtils';
import { CoalescingHealthSource } from './CoalescingHealthSource';
import { ProductHealthChanged } from './ProductHealthChanged';

const SHOP = { team: 'alpha', product: 'shop' };
const CART = { team: 'alpha', product: 'cart' };
const ONE_HOUR_MS = 60 * 60 * 1000;

describe('ProductHealthChanged', () => {
  it("reads the Product's Applications and the branch head again, tells viewers, then has the Gate look", async () => {
    const argo = new FakeHealthSource();
    argo.setApplication(SHOP, 'dev', { health: 'Progressing' });
    argo.setApplication(CART, 'dev', { health: 'Progressing' });
    const healthSource = new CoalescingHealthSource(argo, ONE_HOUR_MS);
    await healthSource.listApplications(SHOP);
    await healthSource.listApplications(CART);
    const happened: string[] = [];
    const handler = new ProductHealthChanged({
      healthSource,
      repo: { forgetHead: () => happened.push('forget head') },
      productChanged: async (product: ProductRef) => {
        happened.push(`signal ${product.product}`);
      },
      checkLivePromotions: async (product: ProductRef) => {
        happened.push(`gate ${product.product}`);
      },
    });

    argo.setApplication(SHOP, 'dev', { health: 'Healthy' });
    argo.setApplication(CART, 'dev', { health: 'Healthy' });
    await handler.handle(SHOP);

    const health = async (product: ProductRef) =>
      (await healthSource.listApplications(product)).applications[0].application.status?.health?.status;
    expect(await health(SHOP)).toBe('Healthy');
    // Another Product's list stays remembered until its own event.
    expect(await health(CART)).toBe('Progressing');
    expect(happened).toEqual(['forget head', 'signal shop', 'gate shop']);
  });

  it("tells the Product's owners of a stall last, after the Gate looked", async () => {
    const happened: string[] = [];
    const handler = new ProductHealthChanged({
      repo: { forgetHead: () => happened.push('forget head') },
      productChanged: async () => {
        happened.push('signal');
      },
      checkLivePromotions: async () => {
        happened.push('gate');
      },
      notifyStuck: async (product: ProductRef) => {
        happened.push(`stuck? ${product.product}`);
      },
    });

    await handler.handle(SHOP);

    expect(happened).toEqual(['forget head', 'signal', 'gate', 'stuck? shop']);
  });

  it('does without a health source', async () => {
    const happened: string[] = [];
    const handler = new ProductHealthChanged({
      repo: { forgetHead: () => happened.push('forget head') },
      productChanged: async () => {
        happened.push('signal');
      },
      checkLivePromotions: async () => {
        happened.push('gate');
      },
    });

    await handler.handle(SHOP);

    expect(happened).toEqual(['forget head', 'signal', 'gate']);
  });
});
