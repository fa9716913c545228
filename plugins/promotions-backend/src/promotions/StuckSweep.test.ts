import { givesTheEventLoopATurn } from '../__testUtils__/eventLoopTurn';
import { mockLogger } from '../__testUtils__/lightServices';
import type { Ladder, ProductRef } from '@refplat/plugin-promotions-common';
import { StuckSweep } from './StuckSweep';

const SHOP = { team: 'alpha', product: 'shop' };
const PAYMENTS = { team: 'beta', product: 'payments' };
const ladderOf = (product: ProductRef) => ({ ...product, stages: [] }) as unknown as Ladder;

function sweep(options: { failing?: ProductRef; listings?: () => void } = {}) {
  const notified: string[] = [];
  const built: string[] = [];
  const stuckSweep = new StuckSweep({
    products: async () => [SHOP, PAYMENTS],
    sweepLadders: async () => {
      options.listings?.();
      return async product => {
        built.push(`${product.team}/${product.product}`);
        if (product === options.failing) throw new Error('GitHub answered 502');
        return ladderOf(product);
      };
    },
    notifyStuck: async ladder => {
      notified.push(`${ladder.team}/${ladder.product}`);
    },
    logger: mockLogger(),
  });
  return { stuckSweep, notified, built };
}

describe('StuckSweep', () => {
  it("hands every Product's ladder to the notifier, with one Application listing for the sweep", async () => {
    let listings = 0;
    const { stuckSweep, notified } = sweep({ listings: () => listings++ });

    await expect(stuckSweep.run()).resolves.toEqual({ products: 2, failed: 0 });

    expect(notified.sort()).toEqual(['alpha/shop', 'beta/payments']);
    expect(listings).toBe(1);
  });

  it('goes on to the other Products when one ladder cannot be built', async () => {
    const { stuckSweep, notified, built } = sweep({ failing: SHOP });

    await expect(stuckSweep.run()).resolves.toEqual({ products: 2, failed: 1 });

    expect(built.sort()).toEqual(['alpha/shop', 'beta/payments']);
    expect(notified).toEqual(['beta/payments']);
  });

  it('lets the event loop answer I/O between Products', async () => {
    const { stuckSweep } = sweep();
    expect(await givesTheEventLoopATurn(() => stuckSweep.run())).toBe(true);
  });
});
