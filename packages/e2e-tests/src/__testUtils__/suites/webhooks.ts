import { Browser } from 'playwright-core';
import { SharedStack } from '../sharedStack';
import { SuiteProduct } from '../products';
import { RunningStack } from '../stack';
import { openSystem, screenshot } from '../browser';
import { measureWebhookMerge } from '../webhookMerge';

/**
 * A merge made by hand on GitHub reaches an open ladder through the webhook
 * (signed delivery → events backend → promotions backend → signal), not
 * through a poll. The suite's stack must deliver webhooks (`webhooks: true`)
 * and poll with the Gate once an hour (`promotions.gate: WEBHOOK_GATE`), on
 * a Product of its own.
 */
export function webhooksSuite(shared: SharedStack): void {
  describe('GitHub webhooks in the browser', () => {
    let stack: RunningStack;
    let browser: Browser;
    let shop: SuiteProduct;

    beforeAll(async () => {
      ({ stack, browser } = shared);
      if (!stack.sim.webhooks.configured) {
        throw new Error('the stack does not deliver webhooks: start it with webhooks: true and the Gate polling hourly');
      }
      shop = await shared.addProduct('shop-webhook');
    });

    it('shows a PR merged by hand on GitHub on the open ladder within seconds', async () => {
      const page = await openSystem(browser, stack.baseUrl, 'bob', shop.name);
      const { ladderMs, signalMs, promotionMs } = await measureWebhookMerge(stack, page, 'cart', shop.ref);
      // eslint-disable-next-line no-console
      console.log(
        `webhook → browser: first signal after ${signalMs ?? 'none'} ms, ladder shows the merge after ${ladderMs} ms, promotion merged within ${promotionMs} ms (Gate poll: 1 h, ladder poll: 10 s)`,
      );
      expect(stack.sim.webhooks.deliveries().filter(d => d.status === 202).length).toBeGreaterThan(0);
      // The page heard of the merge through a signal, before it showed it.
      expect(signalMs).toBeLessThanOrEqual(ladderMs);
      // Well under the ladder's own 10 s poll; the target (≤ 2 s) is reported above.
      expect(ladderMs).toBeLessThan(5000);
      await screenshot(page, 'webhook-merge');
      await page.close();
    });
  });
}
