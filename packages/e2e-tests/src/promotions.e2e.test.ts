import { execFileSync } from 'child_process';
import { Browser, Page } from 'playwright-core';
import { parse } from 'yaml';
import { RunningStack, startStack } from './stack';
import { launchBrowser, openShop, screenshot } from './browser';

jest.setTimeout(240_000);

describe('requesting and approving promotions in the app', () => {
  let stack: RunningStack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack({ canaryStepMs: 1500, syncDelayMs: 500 });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  function releaseDigest(stage: string, service: string): string {
    const text = execFileSync(
      'git',
      ['--git-dir', stack.sim.repoDir, 'show', `main:gitops/releases/alpha/shop/${stage}.yaml`],
      { encoding: 'utf8' },
    );
    return parse(text).spec.services[service].digest;
  }

  const shopAs = (user: 'alice' | 'bob') => openShop(browser, stack.baseUrl, user);

  const cellDigest = (page: Page, stage: string, service: string) =>
    page.getByTestId(`cell-${stage}-${service}`).getByTestId('digest').getAttribute('data-digest');

  it('bob promotes storefront dev → test: the PR merges by itself and the digest climbs', async () => {
    const devDigest = releaseDigest('dev', 'storefront');
    const page = await shopAs('bob');
    await page.getByTestId('request-promotion-test-storefront').click();
    const dialog = page.getByTestId('promotion-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toMatch(/Merges automatically once dev is healthy/i);
    await screenshot(page, 'request-dev-to-test');
    await page.getByTestId('promotion-submit').click();
    await page.getByTestId('promotion-pr-link').waitFor();
    await page.getByTestId('promotion-status').getByText('merged').waitFor({ timeout: 60_000 });
    await screenshot(page, 'request-dev-to-test-merged');
    await page.keyboard.press('Escape');

    await page.waitForFunction(
      ([digest]) =>
        document
          .querySelector('[data-testid="cell-test-storefront"] [data-testid="digest"]')
          ?.getAttribute('data-digest') === digest,
      [devDigest],
      { timeout: 60_000 },
    );
    expect(releaseDigest('test', 'storefront')).toBe(devDigest);
    await page.context().close();
  });

  it('bob requests staging → prod, alice approves, and prod runs the new digest', async () => {
    const stagingCart = releaseDigest('staging', 'cart');
    const bob = await shopAs('bob');
    await bob.getByTestId('request-promotion-prod').click();
    const dialog = bob.getByTestId('promotion-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toMatch(/release-approver/);
    await bob.getByTestId('promotion-submit').click();
    await bob.getByTestId('promotion-pr-link').waitFor();
    await bob.getByTestId('promotion-status').getByText('awaiting-approval').waitFor({ timeout: 30_000 });
    await screenshot(bob, 'request-prod-awaiting-approval');
    await bob.context().close();

    const alice = await shopAs('alice');
    const approveButton = alice.locator('[data-testid^="approve-"]').first();
    await approveButton.waitFor({ timeout: 30_000 });
    await approveButton.click();
    await alice.getByTestId('approve-dialog').waitFor();
    expect(await alice.getByTestId('approve-requester').textContent()).toContain('user:default/bob');
    await screenshot(alice, 'approve-prod');
    await alice.getByTestId('approve-confirm').click();
    await alice.getByTestId('approve-result').waitFor();
    await alice.keyboard.press('Escape');

    await alice.waitForFunction(
      ([digest]) => {
        const cell = document.querySelector('[data-testid="cell-prod-cart"]');
        return (
          cell?.querySelector('[data-testid="digest"]')?.getAttribute('data-digest') === digest &&
          cell?.querySelector('[data-testid="health-healthy"]') !== null
        );
      },
      [stagingCart],
      { timeout: 90_000 },
    );
    expect(await cellDigest(alice, 'prod', 'cart')).toBe(stagingCart);
    await screenshot(alice, 'prod-after-approval');
    await alice.context().close();
  });
});
