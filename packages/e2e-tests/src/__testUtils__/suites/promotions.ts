import { execFileSync } from 'child_process';
import { Browser, Page } from 'playwright-core';
import { parse } from 'yaml';
import { SharedStack } from '../sharedStack';
import { SuiteProduct } from '../products';
import { RunningStack, callPromotions } from '../stack';
import { DemoUser, dialogOutcome, openSystem, screenshot } from '../browser';
import { ENTITY_REF, pullRequestTexts } from '../pullRequestTexts';

/** On a Product of its own. */
export function promotionsSuite(shared: SharedStack): void {
  describe('requesting and approving promotions in the app', () => {
    let stack: RunningStack;
    let browser: Browser;
    let shop: SuiteProduct;

    beforeAll(async () => {
      ({ stack, browser } = shared);
      shop = await shared.addProduct('shop-promotions');
    });

    function releaseDigest(stage: string, service: string): string {
      const text = execFileSync(
        'git',
        ['--git-dir', stack.sim.repoDir, 'show', `main:${shop.releasePath(stage)}`],
        { encoding: 'utf8' },
      );
      return parse(text).spec.services[service].digest;
    }

    const shopAs = (user: DemoUser) => openSystem(browser, stack.baseUrl, user, shop.name);

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
      await page.locator('[data-testid="promotion-status"][data-status="merged"]').waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('promotion-status').textContent()).toBe('Merged');
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
      await page.close();
    });

    it('alice requests staging → prod and may not approve it herself; carol approves and prod runs the new digest', async () => {
      const stagingCart = releaseDigest('staging', 'cart');
      const alice = await shopAs('alice');
      await alice.getByTestId('request-promotion-prod').click();
      const dialog = alice.getByTestId('promotion-dialog');
      await dialog.waitFor();
      // The approvers by their names, each linked to its catalog page; no entity refs.
      const nextStep = dialog.getByTestId('promotion-next-step');
      await nextStep.getByRole('link', { name: 'release-approvers' }).waitFor();
      expect(await nextStep.textContent()).toMatch(/^Needs a release-approver \(members of release-approvers(, [\w-]+)*\) before it merges\.$/);
      expect(await dialog.textContent()).not.toMatch(ENTITY_REF);
      await alice.getByTestId('promotion-submit').click();
      await alice.getByTestId('promotion-pr-link').waitFor();
      await alice
        .locator('[data-testid="promotion-status"][data-status="awaiting-approval"]')
        .waitFor({ timeout: 30_000 });
      await screenshot(alice, 'request-prod-awaiting-approval');
      await alice.keyboard.press('Escape');

      // The requester never sees an enabled Approve: it is disabled, and says why.
      const ownApprove = alice.locator('button[data-testid^="approve-"]').first();
      await ownApprove.waitFor({ timeout: 30_000 });
      expect(await ownApprove.isDisabled()).toBe(true);
      expect(await alice.locator('[data-testid^="approve-why-"]').first().textContent()).toBe(
        'You requested this promotion: another release-approver must approve it',
      );
      await alice.getByRole('table', { name: 'Promotions in flight' }).scrollIntoViewIfNeeded();
      await screenshot(alice, 'approve-own-request');
      await alice.close();

      const carol = await shopAs('carol');
      const approveButton = carol.locator('button[data-testid^="approve-"]:not([disabled])').first();
      await approveButton.waitFor({ timeout: 30_000 });
      const promotionId = (await approveButton.getAttribute('data-testid'))!.replace(/^approve-/, '');
      await approveButton.click();
      await carol.getByTestId('approve-dialog').waitFor();
      expect(await carol.getByTestId('approve-requester').textContent()).toContain('Alice Approver');
      await screenshot(carol, 'approve-prod');
      await carol.getByTestId('approve-confirm').click();
      await dialogOutcome(carol, 'approve');
      await carol.keyboard.press('Escape');

      await carol.waitForFunction(
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
      expect(await cellDigest(carol, 'prod', 'cart')).toBe(stagingCart);
      await screenshot(carol, 'prod-after-approval');

      // On GitHub, people by name: alice requested it, carol approved it.
      const { body } = await callPromotions(stack.baseUrl, 'carol', 'GET', `/promotions/${promotionId}`);
      const texts = await pullRequestTexts(stack, body.promotion.pullRequest.number);
      expect(texts[0]).toMatch(/^Requested by Alice Approver \(`alice`\)/m);
      expect(texts.join('\n')).toMatch(/^Approved by Carol Checker \(`carol`\) in Backstage \(requested by Alice Approver \(`alice`\)\)/m);
      expect(texts.join('\n')).not.toMatch(ENTITY_REF);
      await carol.close();
    });
  });
}
