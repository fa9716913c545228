import { execFileSync } from 'child_process';
import { Browser, Page } from 'playwright-core';
import { parse } from 'yaml';
import { RunningStack, startStack } from './__testUtils__/stack';
import { launchBrowser, screenshot, signIn } from './__testUtils__/browser';

jest.setTimeout(300_000);

/**
 * The climb, a soak countdown, a rollback from history and its hold, and a
 * revert of one change in dev, in the browser.
 */
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
    // Revert the newest change: the climb that brought cart.
    const rollbackButton = page.locator('[data-testid^="rollback-revert-"]').first();
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

  /** What dev's Release record names on the platform repo's main branch. */
  const devRelease = (): Record<string, string> => {
    const text = execFileSync(
      'git',
      ['--git-dir', stack.sim.repoDir, 'show', 'main:gitops/releases/alpha/shop/dev.yaml'],
      { encoding: 'utf8' },
    );
    const services = parse(text).spec.services as Record<string, { digest: string }>;
    return Object.fromEntries(Object.entries(services).map(([s, e]) => [s, e.digest]));
  };

  it('reverts the change that brought a bad storefront into dev, leaving the earlier cart change', async () => {
    const shop = { team: 'alpha', product: 'shop' };
    const cart = await stack.sim.control.ciPush({ ...shop, service: 'cart' });
    const beforeBad = devRelease();
    expect(beforeBad.cart).toBe(cart.digest);
    const bad = await stack.sim.control.ciPush({ ...shop, service: 'storefront' });
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
    expect(files.map((f: { filename: string }) => f.filename)).toEqual(['gitops/releases/alpha/shop/dev.yaml']);
    const changedLines = (files[0].patch as string).split('\n').filter(line => /^[-+][^-+]/.test(line));
    expect(changedLines).toEqual([
      expect.stringMatching(new RegExp(`^-\\s+digest: ${bad.digest}$`)),
      expect.stringMatching(new RegExp(`^\\+\\s+digest: ${beforeBad.storefront}$`)),
    ]);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');

    // Merged: dev runs the earlier storefront again, and cart's change stays
    await cellDigestIs('dev', 'storefront', beforeBad.storefront, 60_000);
    expect(devRelease()).toEqual(beforeBad);
  });
});
