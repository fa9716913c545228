import { Browser, Page } from 'playwright-core';
import { RunningStack, startStack } from './__testUtils__/stack';
import { launchBrowser, screenshot, signIn } from './__testUtils__/browser';

jest.setTimeout(300_000);

/** The climb, a soak countdown, a rollback from history and its hold, in the browser. */
describe('the auto-promoter in the app', () => {
  let stack: RunningStack;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    stack = await startStack(
      { canaryStepMs: 800, syncDelayMs: 300 },
      {
        stages: ['dev', { name: 'test', soakTime: { seconds: 15 } }, 'uat', 'staging', 'prod'],
        autoPromote: { enabled: true, frequency: { seconds: 3 } },
      },
    );
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1600, height: 1100 } });
    page = await context.newPage();
    await signIn(page, stack.baseUrl, 'bob');
    await page.goto(`${stack.baseUrl}/catalog/default/system/shop`);
    await page.getByTestId('stage-prod').waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
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

  it('shows a new digest climbing, soaking in test, then reaching uat', async () => {
    const { digest } = await stack.sim.control.ciPush({ team: 'alpha', product: 'shop', service: 'cart' });
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
    const rollbackButton = page.locator('[data-testid^="rollback-"]').first();
    await rollbackButton.waitFor();
    await rollbackButton.click();
    await page.getByTestId('rollback-dialog').waitFor();
    await screenshot(page, 'rollback-confirm');
    await page.getByTestId('rollback-confirm').click();
    await page.getByTestId('rollback-pr-link').waitFor({ timeout: 30_000 });
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');

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
});
