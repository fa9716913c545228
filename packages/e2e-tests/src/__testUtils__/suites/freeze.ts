import { Browser } from 'playwright-core';
import { SharedStack } from '../sharedStack';
import { SuiteProduct, suiteProduct } from '../products';
import { RunningStack, callPromotions } from '../stack';
import { openSystem, screenshot } from '../browser';

const WIDTHS = [1280, 1920];
const FROZEN = suiteProduct('shop-freeze');

/** `YYYY-MM-DD`, `days` from today (UTC). */
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The freeze window the suite's stack must be configured with (promotions.freezes): on now, for the suite's Product's prod. */
export const HOLIDAY_FREEZE = {
  name: 'holidays',
  stages: ['prod'],
  products: [FROZEN.ref],
  schedule: `${day(-1)} – ${day(1)}`,
  timezone: 'UTC',
  reason: 'Holiday freeze',
};

/**
 * A freeze window on now for prod only: the ladder shows it with its end,
 * and alice, a release-approver, overrides it with a reason.
 */
export function freezeSuite(shared: SharedStack): void {
  describe('a frozen stage on the ladder', () => {
    let stack: RunningStack;
    let browser: Browser;
    let shop: SuiteProduct;

    beforeAll(async () => {
      ({ stack, browser } = shared);
      shop = await shared.addProduct(FROZEN.name);
    });

    it('shows the window and its end on prod, and alice overrides it with a reason: the promotion opens', async () => {
      const alice = await openSystem(browser, stack.baseUrl, 'alice', shop.name, { width: 1280, height: 1000 });
      // The window covers yesterday to tomorrow (UTC), whole days: it ends at tomorrow's end.
      const notice = alice.getByTestId('freeze-prod');
      await notice.waitFor({ timeout: 60_000 });
      expect(await notice.textContent()).toMatch(/Frozen by holidays until .+ \(ends in (1d( \d+h)?|2d)\): Holiday freeze/);
      expect(await alice.getByTestId('freeze-staging').count()).toBe(0);
      for (const width of WIDTHS) {
        await alice.setViewportSize({ width, height: 1000 });
        await screenshot(alice, `freeze-ladder-${width}`);
      }

      await alice.getByTestId('request-promotion-prod').click();
      const dialog = alice.getByTestId('promotion-dialog');
      await dialog.waitFor();
      expect(await dialog.getByTestId('promotion-override').textContent()).toMatch(/Override freeze.*frozen by holidays/);
      const submit = alice.getByTestId('promotion-submit');
      expect(await submit.isDisabled()).toBe(true);
      await alice.getByTestId('promotion-override-reason').fill('Checkout outage hotfix');
      for (const width of WIDTHS) {
        // As tall as the page, so the dialog's backdrop covers the whole full-page screenshot.
        await alice.setViewportSize({ width, height: 2000 });
        await screenshot(alice, `freeze-override-${width}`);
      }
      await submit.click();
      const link = alice.getByTestId('promotion-pr-link');
      await link.waitFor({ timeout: 60_000 });
      const number = Number((await link.textContent())!.replace(/\D/g, ''));
      expect(number).toBeGreaterThan(0);

      const { body } = await callPromotions(stack.baseUrl, 'alice', 'GET', `${shop.route}/promotions`);
      const opened = (body.items as { id: string; toStage: string; pullRequest: { number: number } }[]).find(
        promotion => promotion.pullRequest.number === number,
      );
      expect(opened?.toStage).toBe('prod');
      const detail = await callPromotions(stack.baseUrl, 'alice', 'GET', `/promotions/${opened!.id}`);
      expect(detail.body.events).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ type: 'guards-overridden', actor: 'user:default/alice', detail: 'Checkout outage hotfix' }),
        ]),
      );
      await alice.close();
    });
  });
}
