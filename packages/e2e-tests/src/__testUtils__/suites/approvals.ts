import { Browser, Page } from 'playwright-core';
import { SharedStack } from '../sharedStack';
import { SuiteProduct } from '../products';
import { RunningStack, callPromotions, userToken, waitForPromotionStatus } from '../stack';
import { dialogOutcome, screenshot, signIn } from '../browser';
import { scrollingSideways } from '../layout';
import { ENTITY_REF, pullRequestTexts } from '../pullRequestTexts';

/**
 * The approvals inbox in the app: a release-approver rejects one prod
 * promotion and approves the next, inline. On a Product of its own that the
 * auto-promoter leaves alone, on a stack whose staging soaks for two seconds:
 * the inbox shows what the approver lets through, soaked.
 */
export function approvalsSuite(shared: SharedStack): void {
  describe('the approvals inbox', () => {
    let stack: RunningStack;
    let browser: Browser;
    let shop: SuiteProduct;
    let alice: Page;

    beforeAll(async () => {
      ({ stack, browser } = shared);
      // A 20-character ref, alpha/shop-approvals: the row's width at 1280 px is checked below,
      // and the Product cell has to wrap for it to fit.
      shop = await shared.addProduct('shop-approvals');
      await stagingSoaked();
      alice = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      await signIn(alice, stack.baseUrl, 'alice');
    });

    afterAll(async () => {
      await alice?.context().close();
    });

    /** Until staging's digests have soaked (the first ladder view starts the clock): prod refuses them before. */
    async function stagingSoaked(product: SuiteProduct = shop) {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        const { body } = await callPromotions(stack.baseUrl, 'bob', 'GET', `${product.route}/ladder`);
        const staging = body.stages?.find((stage: { name: string }) => stage.name === 'staging');
        const cells: { digest?: string; soakRemainingSeconds?: number }[] = Object.values(staging?.services ?? {});
        if (cells.length && cells.every(cell => !cell.digest || cell.soakRemainingSeconds === 0)) return;
        await new Promise(resolve => setTimeout(resolve, 250));
      }
      throw new Error('staging has not soaked after 60 s');
    }

    const bobRequestsProd = async (product: SuiteProduct = shop): Promise<string> => {
      const requested = await callPromotions(stack.baseUrl, 'bob', 'POST', `${product.route}/promotions`, {
        toStage: 'prod',
      });
      expect(requested.status).toBe(201);
      await waitForPromotionStatus(stack.baseUrl, requested.body.promotion.id, 'awaiting-approval');
      return requested.body.promotion.id;
    };

    /** The inbox, from the sidebar, once it lists `id`. */
    const openInbox = async (id: string) => {
      await alice.goto(`${stack.baseUrl}/catalog`);
      await alice.getByRole('link', { name: 'Approvals' }).click();
      await alice.waitForURL(/\/promotions\/approvals/);
      // One nav item highlighted: Approvals, not also Promotions (at /promotions, above it).
      const current = alice.locator('nav[aria-label="sidebar nav"] a[aria-current="page"]');
      await current.first().waitFor();
      expect(await current.evaluateAll(links => links.map(link => link.getAttribute('aria-label')))).toEqual(['Approvals']);
      const row = alice.getByTestId(`approval-${id}`);
      await row.waitFor({ timeout: 30_000 });
      return row;
    };

    it('rejects with a reason: the row leaves the inbox and the promotion is closed with it', async () => {
      const id = await bobRequestsProd();
      const row = await openInbox(id);
      expect(await row.textContent()).toMatch(new RegExp(`${shop.ref}|${shop.name}`));
      expect(await row.textContent()).toMatch(/staging → prod|staging.*prod/);
      // The source stage as alice judges it: each service healthy and soaked in staging.
      await alice.getByRole('columnheader', { name: 'Source' }).waitFor();
      expect(await alice.getByTestId(`approval-source-${id}`).textContent()).toMatch(/^(Healthysoaked)+$/);
      await screenshot(alice, 'approvals-inbox-1280');
      expect(await scrollingSideways(row)).toEqual([]);

      await alice.getByTestId(`reject-${id}`).click();
      const dialog = alice.getByTestId('reject-dialog');
      await dialog.waitFor();
      await dialog.getByLabel(/Reason/).fill('Not during the audit freeze');
      await screenshot(alice, 'approvals-reject');
      expect(await alice.locator('body').textContent()).not.toMatch(ENTITY_REF);
      await alice.getByTestId('reject-confirm').click();
      await row.waitFor({ state: 'detached', timeout: 30_000 });

      const { body } = await callPromotions(stack.baseUrl, 'bob', 'GET', `/promotions/${id}`);
      expect(body.promotion.status).toBe('closed');
      expect(body.promotion.statusReason).toBe('Rejected by Alice Approver: Not during the audit freeze');
      expect(body.promotion.rejection).toEqual({ by: 'user:default/alice', reason: 'Not during the audit freeze' });

      // On GitHub, people by name: the requester in the body, the rejecter in the closing comment.
      const [prBody, ...comments] = await pullRequestTexts(stack, body.promotion.pullRequest.number);
      expect(prBody).toMatch(/^Requested by Bob Builder \(`bob`\)/m);
      expect(comments.join('\n')).toMatch(/^Rejected by Alice Approver \(`alice`\) in Backstage/m);
      expect([prBody, ...comments].join('\n')).not.toMatch(ENTITY_REF);

      // The Product's Promotions tab says who rejected it and why, by name.
      await alice.goto(`${stack.baseUrl}/catalog/default/system/${shop.name}/promotions`);
      const rejection = alice.getByTestId(`history-rejection-${id}`);
      await rejection.getByText('Alice Approver').waitFor({ timeout: 30_000 });
      expect(await rejection.textContent()).toBe('Rejected by Alice Approver: Not during the audit freeze');
      expect(await alice.locator('body').textContent()).not.toMatch(ENTITY_REF);
      await screenshot(alice, 'promotions-tab-rejected');
    });

    /** What the permission backend decides for `user` approving each Product's promotions, by the demo's policy. */
    const mayApprove = async (user: string, products: string[]): Promise<string[]> => {
      const response = await fetch(`${stack.baseUrl}/api/permission/authorize`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await userToken(stack.baseUrl, user)}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          items: products.map((resourceRef, index) => ({
            id: String(index),
            permission: { type: 'resource', name: 'promotions.promotion.approve', attributes: { action: 'update' }, resourceType: 'promotions-product' },
            resourceRef,
          })),
        }),
      });
      expect(response.status).toBe(200);
      return (await response.json()).items.map((item: { result: string }) => item.result);
    };

    it("lets erin, whom the shop's System names as an approver (shop-release), approve its prod promotion, and not the blog's", async () => {
      // The demo's policy answers with the plugin's rule: the permission backend resolves it against each Product.
      expect(await mayApprove('erin', [shop.ref, 'alpha/blog'])).toEqual(['ALLOW', 'DENY']);
      // A Product of her own: her approval merges, and the shop's prod stays for the tests below.
      const erinsShop = await shared.addProduct('shop-erin');
      await stagingSoaked(erinsShop);
      const id = await bobRequestsProd(erinsShop);
      const erin = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      try {
        await signIn(erin, stack.baseUrl, 'erin');
        await erin.goto(`${stack.baseUrl}/promotions/approvals`);
        await erin.getByTestId(`approve-${id}`).click({ timeout: 30_000 });
        await erin.getByTestId('approve-dialog').waitFor();
        await erin.getByTestId('approve-confirm').click();
        await dialogOutcome(erin, 'approve');
        await screenshot(erin, 'approvals-erin-approved');
      } finally {
        await erin.context().close();
      }
      await waitForPromotionStatus(stack.baseUrl, id, 'merged', { timeoutMs: 90_000 });
    });

    it('lets bob withdraw his own pending prod promotion from the ladder: it is closed with his reason, its PR with his comment', async () => {
      const id = await bobRequestsProd();
      const bob = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      try {
        await signIn(bob, stack.baseUrl, 'bob');
        await bob.goto(`${stack.baseUrl}/catalog/default/system/${shop.name}`);
        await bob.getByTestId(`withdraw-${id}`).click({ timeout: 60_000 });
        const dialog = bob.getByTestId('withdraw-dialog');
        await dialog.waitFor();
        await bob.getByTestId('withdraw-reason').fill('Requested prod by mistake');
        await screenshot(bob, 'withdraw-dialog');
        await bob.getByTestId('withdraw-confirm').click();
        // The ladder clears live: the row goes.
        await bob.getByTestId(`open-promotion-${id}`).waitFor({ state: 'detached', timeout: 30_000 });
      } finally {
        await bob.context().close();
      }
      const { body } = await callPromotions(stack.baseUrl, 'bob', 'GET', `/promotions/${id}`);
      expect(body.promotion).toMatchObject({ status: 'closed', statusReason: 'Withdrawn by Bob Builder: Requested prod by mistake' });
      expect(body.events.map((event: { type: string }) => event.type)).toContain('withdrawn');
      const texts = await pullRequestTexts(stack, body.promotion.pullRequest.number);
      expect(texts.join('\n')).toMatch(/Withdrawn by Bob Builder \(`bob`\) in Backstage[^]*> Requested prod by mistake/);
    });

    it('approves inline: the promotion merges', async () => {
      const id = await bobRequestsProd();
      await openInbox(id);
      await alice.getByTestId(`approve-${id}`).click();
      await alice.getByTestId('approve-dialog').waitFor();
      await alice.getByTestId('approve-confirm').click();
      await dialogOutcome(alice, 'approve');
      await waitForPromotionStatus(stack.baseUrl, id, 'merged', { timeoutMs: 90_000 });
      await screenshot(alice, 'approvals-approved');
    });
  });
}
