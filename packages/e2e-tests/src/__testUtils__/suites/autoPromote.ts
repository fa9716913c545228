import { execFileSync } from 'child_process';
import { Browser, Page } from 'playwright-core';
import { parse } from 'yaml';
import { SharedStack } from '../sharedStack';
import { SuiteProduct } from '../products';
import { RunningStack, callPromotions } from '../stack';
import { screenshot, signIn } from '../browser';

/**
 * Closes the rollback dialog, then the history dialog under it, each once
 * the one above is gone: on a busy machine an Escape pressed while a dialog
 * still closes was lost, and the history dialog stayed over the ladder.
 */
async function closeRollbackAndHistory(page: Page): Promise<void> {
  for (const testId of ['rollback-dialog', 'history-dialog']) {
    const dialog = page.getByTestId(testId);
    for (let attempt = 1; (await dialog.count()) > 0; attempt++) {
      await page.keyboard.press('Escape');
      try {
        await dialog.waitFor({ state: 'detached', timeout: 10_000 });
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
  }
}

/**
 * The climb, a soak countdown, a rollback from history and its hold, and a
 * revert of one change in dev, in the browser.
 */
export function autoPromoteSuite(shared: SharedStack): void {
  describe('the auto-promoter in the app', () => {
    let stack: RunningStack;
    let browser: Browser;
    let shop: SuiteProduct;
    let page: Page;

    beforeAll(async () => {
      ({ stack, browser } = shared);
      shop = await shared.addProduct('shop-climb');
      const context = await browser.newContext({ viewport: { width: 1600, height: 1100 } });
      page = await context.newPage();
      await signIn(page, stack.baseUrl, 'bob');
      await page.goto(`${stack.baseUrl}/catalog/default/system/${shop.name}`);
      await page.getByTestId('stage-prod').waitFor();
    });

    afterAll(async () => {
      await page?.context().close();
    });

    const cellDigestIs = (stage: string, service: string, digest: string, timeout: number) =>
      page.waitForFunction(
        ([testId, expected]) =>
          document
            .querySelector(`[data-testid="${testId}"] [data-testid="digest"]`)
            ?.getAttribute('data-digest') === expected,
        [`cell-${stage}-${service}`, digest],
        { timeout },
      );

    /** The cart digest the first case climbs: older than any pushed after it. */
    let firstCart: string;

    it('shows a new digest climbing, soaking in test, then reaching uat', async () => {
      const { digest } = await stack.sim.control.ciPush({ team: 'alpha', product: shop.name, service: 'cart' });
      firstCart = digest;
      await cellDigestIs('test', 'cart', digest, 90_000);
      const soak = page.getByTestId('soak-test-cart');
      await soak.waitFor({ timeout: 60_000 });
      expect(await soak.textContent()).toMatch(/Soaking: \d+s left/);
      await screenshot(page, 'climb-soaking-in-test');
      // uat is told why the digest waits: the auto-promoter's last decision, on hover
      await page.getByTestId('incoming-uat-cart').getByTestId('waiting-to-climb').hover();
      const why = page.getByRole('tooltip');
      await why.waitFor();
      expect(await why.textContent()).toMatch(/Auto-promoter, .*: skipped — /);
      await screenshot(page, 'climb-why-uat-waits');
      await page.mouse.move(0, 0);
      await cellDigestIs('uat', 'cart', digest, 90_000);
      // the cell says the auto-promoter brought it, with its PR
      const arrived = page.getByTestId('arrived-uat-cart');
      await arrived.waitFor();
      expect(await arrived.textContent()).toMatch(/^auto-promoted .* ago · #\d+/);
      await screenshot(page, 'climb-reached-uat');
    });

    it('rolls uat back from its history and holds it, then resumes', async () => {
      const current = await page
        .getByTestId('cell-uat-cart')
        .getByTestId('digest')
        .getAttribute('data-digest');
      await page.getByTestId('history-uat').click();
      await page.getByTestId('history-dialog').waitFor();
      // Revert the newest change: the climb that brought cart.
      const rollbackButton = page.locator('[data-testid^="rollback-revert-"]').first();
      await rollbackButton.waitFor();
      await rollbackButton.click();
      await page.getByTestId('rollback-dialog').waitFor();
      await screenshot(page, 'rollback-confirm');
      await page.getByTestId('rollback-confirm').click();
      await page.getByTestId('rollback-pr-link').waitFor({ timeout: 30_000 });
      await closeRollbackAndHistory(page);

      const hold = page.getByTestId('hold-uat-cart');
      await hold.waitFor({ timeout: 60_000 });
      await page.waitForFunction(
        ([digest]) =>
          document
            .querySelector('[data-testid="cell-uat-cart"] [data-testid="digest"]')
            ?.getAttribute('data-digest') !== digest,
        [current],
        { timeout: 60_000 },
      );
      await screenshot(page, 'rollback-held');

      await page.getByTestId('resume-uat-cart').click();
      await page.getByTestId('resume-confirm').click();
      await hold.waitFor({ state: 'detached', timeout: 30_000 });
      await cellDigestIs('uat', 'cart', current!, 90_000);
    });

    /** What dev's Release record names on the platform repo's main branch. */
    const devRelease = (): Record<string, string> => {
      const text = execFileSync(
        'git',
        ['--git-dir', stack.sim.repoDir, 'show', `main:${shop.releasePath('dev')}`],
        { encoding: 'utf8' },
      );
      const services = parse(text).spec.services as Record<string, { digest: string }>;
      return Object.fromEntries(Object.entries(services).map(([s, e]) => [s, e.digest]));
    };

    it('reverts the change that brought a bad storefront into dev, leaving the earlier cart change', async () => {
      const product = { team: 'alpha', product: shop.name };
      const cart = await stack.sim.control.ciPush({ ...product, service: 'cart' });
      const beforeBad = devRelease();
      expect(beforeBad.cart).toBe(cart.digest);
      const bad = await stack.sim.control.ciPush({ ...product, service: 'storefront' });
      await cellDigestIs('dev', 'storefront', bad.digest, 60_000);

      await page.getByTestId('history-dev').click();
      const history = page.getByTestId('history-dialog');
      await history.getByTestId(`history-commit-${bad.commit}`).waitFor();
      expect(await history.getByTestId(`history-commit-${bad.commit}`).textContent()).toBe(bad.commit.slice(0, 7));
      await history.getByTestId(`rollback-revert-${bad.commit}`).click();
      const confirm = page.getByTestId('rollback-dialog');
      await confirm.waitFor();
      expect(await confirm.locator('h2').textContent()).toBe(`Revert ${bad.commit.slice(0, 7)} in dev`);
      // Exactly one change: storefront from the bad digest back to the one it replaced
      const changes = confirm.locator('[data-testid^="rollback-change-"]');
      expect(await changes.evaluateAll(rows => rows.map(row => row.getAttribute('data-testid')))).toEqual([
        'rollback-change-storefront',
      ]);
      expect(
        await changes.getByTestId('digest').evaluateAll(labels => labels.map(l => l.getAttribute('data-digest'))),
      ).toEqual([bad.digest, beforeBad.storefront]);
      await screenshot(page, 'revert-one-change');

      await page.getByTestId('rollback-confirm').click();
      const link = page.getByTestId('rollback-pr-link');
      await link.waitFor({ timeout: 30_000 });
      const pr = (await link.getAttribute('href'))!.split('/').pop();
      const files = await (
        await fetch(`${stack.sim.githubApiUrl}/repos/refplat/platform/pulls/${pr}/files`, {
          headers: { authorization: `token ${stack.sim.tokens.github}` },
        })
      ).json();
      expect(files.map((f: { filename: string }) => f.filename)).toEqual([shop.releasePath('dev')]);
      const changedLines = (files[0].patch as string).split('\n').filter(line => /^[-+][^-+]/.test(line));
      expect(changedLines).toEqual([
        expect.stringMatching(new RegExp(`^-\\s+digest: ${bad.digest}$`)),
        expect.stringMatching(new RegExp(`^\\+\\s+digest: ${beforeBad.storefront}$`)),
      ]);
      await closeRollbackAndHistory(page);

      // Merged: dev runs the earlier storefront again, and cart's change stays
      await cellDigestIs('dev', 'storefront', beforeBad.storefront, 60_000);
      expect(devRelease()).toEqual(beforeBad);
    });

    it('after a rollback below and a lifted hold, leaves the newer digest in test and says why', async () => {
      const api = (method: string, route: string, body?: object) =>
        callPromotions(stack.baseUrl, 'bob', method, `${shop.route}${route}`, body);
      const newer = devRelease().cart;
      await cellDigestIs('test', 'cart', newer, 90_000);
      const since = new Date().toISOString();
      const held = await api('POST', '/holds', { stage: 'test', service: 'cart', reason: 'checking the new cart' });
      expect(held.status).toBe(201);
      // dev goes back to the first cart, older than test's
      const rollback = await api('POST', '/rollbacks', { stage: 'dev', services: { cart: firstCart } });
      expect(rollback.status).toBe(201);
      await cellDigestIs('dev', 'cart', firstCart, 60_000);
      await page.getByTestId('older-below-test-cart').waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('incoming-test-cart').count()).toBe(0);

      // A person lifts test's hold: the auto-promoter may act again, and declines the downgrade.
      await page.getByTestId('resume-test-cart').click();
      await page.getByTestId('resume-confirm').click();
      await page.getByTestId('hold-test-cart').waitFor({ state: 'detached', timeout: 30_000 });
      const liftedAt = new Date().toISOString();
      const deadline = Date.now() + 60_000;
      let decision: { reason: string } | undefined;
      while (!decision && Date.now() < deadline) {
        const { body } = await api('GET', '/auto-promotions');
        decision = (body.items as Array<{ toStage: string; service: string; reason: string; decidedAt: string }>).find(
          d => d.toStage === 'test' && d.service === 'cart' && d.decidedAt >= liftedAt && /would be a downgrade/.test(d.reason),
        );
        if (!decision) await new Promise(resolve => setTimeout(resolve, 500));
      }
      expect(decision?.reason).toMatch(/^would be a downgrade: .* reached dev before test's .*; only a person rolls test back$/);

      // The ladder says the same where people look, and test still runs the newer cart.
      await page.reload();
      // The pointer stays where the resume button was: nothing else may show a tooltip.
      await page.mouse.move(0, 0);
      const older = page.getByTestId('older-below-test-cart');
      await older.waitFor({ timeout: 30_000 });
      expect(await older.textContent()).toBe('older in dev');
      await older.hover();
      // The tooltip of what was under the pointer when the page loaded may still be fading out.
      const why = page.getByRole('tooltip').filter({ hasText: /downgrade/ });
      await why.waitFor();
      expect(await why.textContent()).toMatch(/downgrade.*only a person rolls test back.*skipped — would be a downgrade/);
      await screenshot(page, 'older-below-not-promoted');
      await page.mouse.move(0, 0);
      expect(
        await page.getByTestId('cell-test-cart').getByTestId('digest').getAttribute('data-digest'),
      ).toBe(newer);
      const { body } = await api('GET', '/promotions');
      // (the first case climbed firstCart into test once, legitimately: only later requests count)
      const intoTest = (
        body.items as Array<{ toStage: string; services: Record<string, string>; createdAt: string }>
      ).filter(p => p.toStage === 'test' && p.services.cart === firstCart && p.createdAt >= since);
      expect(intoTest).toEqual([]);
    });
  });
}
