import { Browser } from 'playwright-core';
import { SharedStack } from '../sharedStack';
import { SuiteProduct } from '../products';
import { RunningStack, callPromotions, waitForPromotionStatus } from '../stack';
import { openSystem, screenshot, signIn } from '../browser';

/** Live updates through signals, and notifications, in the browser, on a Product of its own. */
export function liveSuite(shared: SharedStack): void {
  describe('live updates and notifications', () => {
    let stack: RunningStack;
    let browser: Browser;
    let shop: SuiteProduct;

    beforeAll(async () => {
      ({ stack, browser } = shared);
      shop = await shared.addProduct('shop-live');
    });

    const api = (user: string, method: string, path: string, body?: object) =>
      callPromotions(stack.baseUrl, user, method, path, body);

    const shopAs = (user: 'alice' | 'bob') =>
      openSystem(browser, stack.baseUrl, user, shop.name);

    it('updates an open ladder within seconds of a change, without a reload', async () => {
      // Open, its first read done and its signals subscribed: what follows shows through a signal or a poll.
      const page = await shopAs('bob');
      const placed = Date.now();
      const hold = await api('bob', 'POST', `${shop.route}/holds`, {
        stage: 'staging',
        service: 'cart',
        reason: 'Freeze for the audit',
      });
      expect(hold.status).toBe(201);
      await page.getByTestId('hold-staging-cart').waitFor({ timeout: 8_000 });
      const holdDelayMs = Date.now() - placed;

      const requested = await api(
        'bob',
        'POST',
        `${shop.route}/promotions`,
        {
          toStage: 'test',
          services: ['storefront'],
        },
      );
      expect(requested.status).toBe(201);
      const digest = requested.body.promotion.services.storefront;
      const mergedAt = await waitForPromotionStatus(stack.baseUrl, requested.body.promotion.id, 'merged', {
        timeoutMs: 20_000,
        pollMs: 100,
      });
      await page.waitForFunction(
        ([expected]) =>
          document
            .querySelector(
              '[data-testid="cell-test-storefront"] [data-testid="digest"]',
            )
            ?.getAttribute('data-digest') === expected,
        [digest],
        { timeout: 8_000 },
      );
      const mergeDelayMs = Date.now() - mergedAt;
      // eslint-disable-next-line no-console
      console.log(
        `live update delay: hold ${holdDelayMs} ms, merge ${mergeDelayMs} ms (polling alone: up to 10000 ms)`,
      );
      expect(mergeDelayMs).toBeLessThan(5000);
      await screenshot(page, 'live-update');
      await page.close();
    });

    it('marks a stuck stage and explains it in the diagnosis panel', async () => {
      stack.sim.control.setApp(shop.application('staging'), { health: 'Degraded' });
      const page = await shopAs('bob');
      const stuck = page.getByTestId('stuck-staging');
      await stuck.waitFor({ timeout: 30_000 });
      await stuck.click();
      const panel = page.getByTestId('diagnosis-panel');
      // The ladder is its summary: the panel reads the cell's diagnosis once it opens.
      await panel.getByTestId('diagnosis-likely-cause').waitFor();
      expect(await panel.textContent()).toMatch(/Likely cause/);
      expect(await panel.textContent()).toMatch(/Degraded/);
      await screenshot(page, 'diagnosis-panel');
      await page.close();
      stack.sim.control.setApp(shop.application('staging'), { clear: true });
      await stack.sim.control.reconcileNow();
      // The next test promotes out of staging: wait until the ladder sees it healthy again.
      const deadline = Date.now() + 30_000;
      for (;;) {
        const { body } = await api('bob', 'GET', `${shop.route}/ladder`);
        const staging = body.stages?.find((stage: { name: string }) => stage.name === 'staging');
        if (staging?.services?.cart?.healthy) break;
        if (Date.now() > deadline) throw new Error(`staging is still ${JSON.stringify(staging?.reasons)}`);
        await new Promise(resolve => setTimeout(resolve, 250));
      }
    });

    it('notifies alice when bob requests prod', async () => {
      const requested = await api(
        'bob',
        'POST',
        `${shop.route}/promotions`,
        { toStage: 'prod' },
      );
      expect(requested.status).toBe(201);
      const context = await browser.newContext({
        viewport: { width: 1600, height: 1000 },
      });
      const page = await context.newPage();
      await signIn(page, stack.baseUrl, 'alice');
      // The inbox shows a notification pushed while it is open (signals); one
      // sent while the page was still subscribing (a busy machine) shows on the
      // next load.
      const notification = page
        .getByText(new RegExp(`Promote .* staging → prod in ${shop.ref} awaits your approval`))
        .first();
      const deadline = Date.now() + 90_000;
      await page.goto(`${stack.baseUrl}/notifications`);
      while (!(await notification.waitFor({ timeout: 15_000 }).then(() => true, () => false))) {
        if (Date.now() > deadline) throw new Error("alice's notification did not show within 90 s");
        await page.reload();
      }
      await screenshot(page, 'notification-alice');
      await context.close();
    });
  });
}
