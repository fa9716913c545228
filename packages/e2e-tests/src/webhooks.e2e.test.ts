import { Browser } from 'playwright-core';
import { RunningStack, callPromotions, startStack, waitForPromotionStatus } from './stack';
import { launchBrowser, openShop, screenshot } from './browser';

jest.setTimeout(180_000);

/**
 * A merge made by hand on GitHub reaches an open ladder through the webhook
 * (signed delivery → events backend → promotions backend → signal), not
 * through a poll: the Gate polls once an hour here.
 */
describe('GitHub webhooks in the browser', () => {
  let stack: RunningStack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack(
      { canaryStepMs: 500, syncDelayMs: 200 },
      { gate: { enabled: true, frequency: { hours: 1 } } },
      { webhooks: true },
    );
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('shows a PR merged by hand on GitHub on the open ladder within seconds', async () => {
    const requested = await callPromotions(stack.baseUrl, 'bob', 'POST', '/products/alpha/shop/promotions', {
      toStage: 'prod',
      services: ['cart'],
    });
    expect(requested.status).toBe(201);
    const { id, services, pullRequest } = requested.body.promotion;
    expect(requested.body.promotion.status).toBe('awaiting-approval');

    const page = await openShop(browser, stack.baseUrl, 'bob');
    const prodCart = '[data-testid="cell-prod-cart"] [data-testid="digest"]';
    await page.locator(prodCart).waitFor();
    expect(await page.locator(prodCart).getAttribute('data-digest')).not.toBe(services.cart);

    const mergedAt = Date.now();
    const merge = await fetch(
      `${stack.sim.githubApiUrl}/repos/refplat/platform/pulls/${pullRequest.number}/merge`,
      { method: 'PUT', headers: { authorization: 'token sim-alice-token', 'content-type': 'application/json' }, body: '{}' },
    );
    expect(merge.status).toBe(200);
    await page.waitForFunction(
      ([selector, expected]) => document.querySelector(selector)?.getAttribute('data-digest') === expected,
      [prodCart, services.cart],
      { timeout: 8_000 },
    );
    const ladderMs = Date.now() - mergedAt;
    await waitForPromotionStatus(stack.baseUrl, id, 'merged', { timeoutMs: 10_000, pollMs: 100 });
    const promotionMs = Date.now() - mergedAt;
    // eslint-disable-next-line no-console
    console.log(
      `webhook → browser: ladder shows the merge after ${ladderMs} ms, promotion merged within ${promotionMs} ms (Gate poll: 1 h, ladder poll: 10 s)`,
    );
    expect(stack.sim.webhooks.deliveries().filter(d => d.status === 202).length).toBeGreaterThan(0);
    // Well under the ladder's own 10 s poll; the target (≤ 2 s) is reported above.
    expect(ladderMs).toBeLessThan(5000);
    await screenshot(page, 'webhook-merge');
    await page.context().close();
  });
});
