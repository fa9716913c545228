import { Browser, Locator, Page } from 'playwright-core';
import { SharedStack } from '../sharedStack';
import { SuiteProduct } from '../products';
import { RunningStack, callPromotions, waitForPromotionStatus } from '../stack';
import { openSystem, screenshot } from '../browser';
import { labelsMissingFromNames, measureLadder, scrollingSideways, wrappedLabels } from '../layout';

const STAGES = ['dev', 'test', 'uat', 'staging', 'prod'];

/** Fails the suite's setup, with what the API answered, when a step of it was not taken. */
function mustBeCreated(step: string, response: { status: number; body: unknown }) {
  if (response.status !== 201) throw new Error(`${step} answered ${response.status}: ${JSON.stringify(response.body)}`);
}

/** The ladder on laptop and desktop screens: all five stages, nothing sideways, labels whole. */
export function layoutSuite(shared: SharedStack): void {
  describe('the ladder at 1280 and 1920 pixels', () => {
    let stack: RunningStack;
    let browser: Browser;
    let shop: SuiteProduct;

    beforeAll(async () => {
      // The stack's canaries are slow, so one is still running while the screenshots are taken.
      ({ stack, browser } = shared);
      shop = await shared.addProduct('shop-layout');
      const api = (user: string, method: string, path: string, body?: object) =>
        callPromotions(stack.baseUrl, user, method, path, body);
      // A day on the ladder: storefront promoted into test (merged), a hold with
      // its reason, prod awaiting approval, a canary in dev.
      const intoTest = await api('bob', 'POST', `${shop.route}/promotions`, {
        toStage: 'test',
        services: ['storefront'],
      });
      mustBeCreated('promoting storefront into test', intoTest);
      await waitForPromotionStatus(stack.baseUrl, intoTest.body.promotion.id, 'merged');
      const hold = await api('bob', 'POST', `${shop.route}/holds`, {
        stage: 'uat',
        service: 'cart',
        reason:
          'Incident INC-7: checkout errors after the payment provider upgrade',
      });
      const prod = await api('alice', 'POST', `${shop.route}/promotions`, {
        toStage: 'prod',
      });
      mustBeCreated('holding cart in uat', hold);
      mustBeCreated('requesting prod', prod);
      await stack.sim.control.ciPush({
        team: 'alpha',
        product: shop.name,
        service: 'storefront',
      });
    });


    /** Waits for a tooltip or dialog to finish fading in, so the screenshot shows it whole. */
    async function settled(locator: Locator) {
      await locator.evaluate(
        element =>
          new Promise<void>(resolve => {
            const opaque = () => {
              for (let el: Element | null = element; el; el = el.parentElement) {
                if (getComputedStyle(el).opacity !== '1') return false;
              }
              return true;
            };
            const check = () =>
              opaque() ? resolve() : requestAnimationFrame(check);
            check();
          }),
      );
    }

    /** The ladder card at the top of the window, as a laptop shows it. */
    async function cardInView(page: Page) {
      await page
        .getByTestId('ladder-card')
        .evaluate(element =>
          element
            .closest('[class*="MuiCard-root"]')!
            .scrollIntoView({ block: 'start' }),
        );
    }

    async function shopAt(width: number, height: number): Promise<Page> {
      const page = await openSystem(browser, stack.baseUrl, 'bob', shop.name, {
        width,
        height,
      });
      await page
        .getByTestId('cell-dev-storefront')
        .getByTestId('canary')
        .waitFor({ timeout: 60_000 });
      await page.getByTestId('live-promotion-prod').waitFor();
      return page;
    }

    it.each([
      [1280, 800],
      [1920, 1080],
    ])(
      'shows the five stages at %ix%i without scrolling sideways',
      async (width, height) => {
        const page = await shopAt(width, height);
        for (const stage of STAGES)
          expect(await page.getByTestId(`stage-${stage}`).isVisible()).toBe(true);
        const layout = await measureLadder(page);
        // eslint-disable-next-line no-console
        console.log(
          `ladder at ${width}px: card ${layout.cardWidth}px, table ${layout.tableWidth}px`,
        );
        expect(await scrollingSideways(page.getByTestId('ladder-table'))).toEqual(
          [],
        );
        expect(layout.overflowingCells).toEqual([]);
        expect(layout.tableWidth).toBeLessThanOrEqual(layout.cardWidth);
        expect(layout.stageRights).toHaveLength(STAGES.length);
        // prod, the column people look at first, ends inside the window.
        expect(layout.stageRights[STAGES.length - 1]).toBeLessThanOrEqual(width);
        // The stage headings hold several lines by design; their buttons and chips one each.
        expect(
          await wrappedLabels(
            page.getByTestId('ladder-table'),
            '[class*="MuiButton-label"], [class*="MuiChip-label"]',
          ),
        ).toEqual([]);
        const inFlight = page.getByRole('table', {
          name: 'Promotions in flight',
        });
        expect(await scrollingSideways(inFlight)).toEqual([]);
        expect(await wrappedLabels(inFlight)).toEqual([]);
        expect(
          await page.getByTestId('hold-reason-uat-cart').textContent(),
        ).toContain('Incident INC-7');
        // Every control is named by what it shows, so speech users can say it.
        expect(await labelsMissingFromNames(page.getByTestId('ladder-card'))).toEqual([]);
        expect(await page.getByRole('button', { name: 'History of dev' }).count()).toBe(1);
        expect(await page.getByRole('button', { name: 'Changes from dev to test' }).count()).toBe(1);
        expect(
          await page.getByRole('button', { name: /^Promote \w+ from \w+ into \w+$/ }).count(),
        ).toBeGreaterThan(0);
        await cardInView(page);
        await screenshot(page, `ladder-${width}`);
        await page.close();
      },
    );

    it('fits the ladder into a card as narrow as a create-app Overview gives it, Promote as arrows', async () => {
      // This app gives the ladder the page's width; a create-app Overview gives
      // it two thirds, a 661 px card in a 1280 px window: so is this one at 925.
      const page = await shopAt(925, 800);
      const card = page.getByTestId('ladder-card').locator('xpath=ancestor::*[contains(@class, "MuiCard-root")][1]');
      const cardBox = (await card.boundingBox())!;
      expect(Math.abs(cardBox.width - 661)).toBeLessThan(10);

      const promote = await page.locator('[data-testid^="request-promotion-"]').all();
      expect(promote.length).toBeGreaterThan(0);
      // A wrapped label (PROMO / TE) makes a button two lines tall.
      const oneLine = (await page.getByTestId('history-dev').boundingBox())!.height;
      for (const button of promote) {
        expect(await button.textContent()).toBe('');
        expect(await button.getAttribute('aria-label')).toMatch(/^Promote /);
        const box = (await button.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(cardBox.x);
        expect(box.x + box.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
        expect(box.height).toBeLessThan(2 * oneLine);
      }
      const layout = await measureLadder(page);
      expect(layout.overflowingCells).toEqual([]);
      expect(await scrollingSideways(page.getByTestId('ladder-table'))).toEqual([]);
      expect(
        await wrappedLabels(
          page.getByTestId('ladder-table'),
          '[class*="MuiButton-label"], [class*="MuiChip-label"]',
        ),
      ).toEqual([]);
      await cardInView(page);
      await screenshot(page, 'ladder-card-661');
      await page.close();
    });

    it("keeps In flight inside a create-app Overview's card, Approve included, for an approver", async () => {
      // Carol approves prod: her row carries an enabled Approve, the widest action.
      const page = await openSystem(browser, stack.baseUrl, 'carol', shop.name, { width: 925, height: 800 });
      const card = page.getByTestId('ladder-card').locator('xpath=ancestor::*[contains(@class, "MuiCard-root")][1]');
      const approve = page.locator('button[data-testid^="approve-"]:not([disabled])').first();
      await approve.waitFor({ timeout: 60_000 });
      const inFlight = page.getByRole('table', { name: 'Promotions in flight' });
      await inFlight.scrollIntoViewIfNeeded();
      const cardBox = (await card.boundingBox())!;
      expect(Math.abs(cardBox.width - 661)).toBeLessThan(10);
      const tableBox = (await inFlight.boundingBox())!;
      const approveBox = (await approve.boundingBox())!;
      expect(tableBox.x + tableBox.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
      expect(approveBox.x).toBeGreaterThanOrEqual(cardBox.x);
      expect(approveBox.x + approveBox.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
      expect(await scrollingSideways(inFlight)).toEqual([]);
      expect(await wrappedLabels(inFlight)).toEqual([]);
      await screenshot(page, 'in-flight-card-661');
      await page.close();
    });

    it('explains a blocked promotion in words, and keeps the history dialog whole at 1280', async () => {
      const page = await shopAt(1280, 800);
      await cardInView(page);
      const blocked = page.getByTestId('request-promotion-test');
      expect(await blocked.isDisabled()).toBe(true);
      await page.locator('span', { has: blocked }).hover();
      const why = page.getByTestId('why-test');
      await why.waitFor();
      await settled(why);
      const text = (await why.textContent()) ?? '';
      expect(text).toContain('Healthy in dev');
      expect(text).not.toMatch(/running-digest|open-promotion/);
      await screenshot(page, 'ladder-why-not');
      await page.mouse.move(0, 0);

      await page.getByTestId('history-prod').click();
      const dialog = page.getByTestId('history-dialog');
      await dialog.locator('[data-testid^="history-entry-"]').first().waitFor();
      await settled(dialog);
      expect(await wrappedLabels(dialog)).toEqual([]);
      await screenshot(page, 'history-dialog-1280');
      await page.close();
    });

    it('gives the Promotions tab the history: status, people, PR and duration, by stage', async () => {
      const page = await openSystem(browser, stack.baseUrl, 'bob', shop.name, {
        width: 1280,
        height: 800,
      });
      await page.goto(`${stack.baseUrl}/catalog/default/system/${shop.name}/promotions`);
      const row = page.locator('[data-testid^="history-promotion-"]').first();
      // People by their catalog display names (they arrive a moment after the row).
      await row.getByText('Alice Approver').waitFor();
      expect(await row.textContent()).toMatch(
        /by Alice Approver.*staging → prod.*Awaiting approval.*#\d+.*so far/,
      );
      expect(await page.getByTestId('ladder-table').count()).toBe(0);
      const table = page.getByRole('table', { name: 'Promotion history' });
      expect(await scrollingSideways(table)).toEqual([]);
      expect(await wrappedLabels(table)).toEqual([]);
      await page.getByTestId('stage-filter-uat').click();
      await page.getByTestId('history-empty').waitFor();
      await page.getByTestId('stage-filter-all').click();
      await row.waitFor();
      const merged = page.locator('[data-testid^="history-promotion-"]', { hasText: 'dev → test' });
      expect(await merged.textContent()).toMatch(/by Bob Builder.*Merged.*#\d+/);
      await page.mouse.move(0, 0);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await screenshot(page, 'promotions-tab');
      await page.close();
    });
  });
}
