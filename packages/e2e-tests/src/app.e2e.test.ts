import { Browser } from 'playwright-core';
import { RunningStack, startStack } from './stack';
import { launchBrowser, screenshot, signIn } from './browser';

jest.setTimeout(180_000);

describe('the app with the promotions plugins', () => {
  let stack: RunningStack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack({ canaryStepMs: 4000 });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it.each(['bob', 'alice'] as const)('%s signs in and sees the ladder card on the shop System page', async user => {
    const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
    const page = await context.newPage();
    try {
      await signIn(page, stack.baseUrl, user);
      await page.goto(`${stack.baseUrl}/catalog/default/system/shop`);
      await page.getByText('Promotion ladder').first().waitFor();
      await page.getByTestId('stage-prod').waitFor();
      for (const stage of ['dev', 'test', 'uat', 'staging', 'prod']) {
        expect(await page.getByTestId(`stage-${stage}`).count()).toBe(1);
      }
      await screenshot(page, `shop-ladder-${user}`);
    } finally {
      await context.close();
    }
  });
});
