import { Browser, Page } from 'playwright-core';
import { RunningStack, callPromotions, startStack, waitForPromotionStatus } from './__testUtils__/stack';
import { launchBrowser, screenshot, signIn } from './__testUtils__/browser';

jest.setTimeout(300_000);

/** The approvals inbox in the app: a release-approver rejects one prod promotion and approves the next, inline. */
describe('the approvals inbox', () => {
  let stack: RunningStack;
  let browser: Browser;
  let alice: Page;

  beforeAll(async () => {
    stack = await startStack({ canaryStepMs: 500, syncDelayMs: 200 });
    browser = await launchBrowser();
    alice = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await signIn(alice, stack.baseUrl, 'alice');
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const bobRequestsProd = async (): Promise<string> => {
    const requested = await callPromotions(stack.baseUrl, 'bob', 'POST', '/products/alpha/shop/promotions', {
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
    const row = alice.getByTestId(`approval-${id}`);
    await row.waitFor({ timeout: 30_000 });
    return row;
  };

  it('rejects with a reason: the row leaves the inbox and the promotion is closed with it', async () => {
    const id = await bobRequestsProd();
    const row = await openInbox(id);
    expect(await row.textContent()).toMatch(/alpha\/shop|shop/);
    expect(await row.textContent()).toMatch(/staging → prod|staging.*prod/);
    await screenshot(alice, 'approvals-inbox-1280');

    await alice.getByTestId(`reject-${id}`).click();
    const dialog = alice.getByTestId('reject-dialog');
    await dialog.waitFor();
    await dialog.getByLabel(/Reason/).fill('Not during the audit freeze');
    await screenshot(alice, 'approvals-reject');
    await alice.getByTestId('reject-confirm').click();
    await row.waitFor({ state: 'detached', timeout: 30_000 });

    const { body } = await callPromotions(stack.baseUrl, 'bob', 'GET', `/promotions/${id}`);
    expect(body.promotion.status).toBe('closed');
    expect(body.promotion.statusReason).toMatch(/Not during the audit freeze/);
  });

  it('approves inline: the promotion merges', async () => {
    const id = await bobRequestsProd();
    await openInbox(id);
    await alice.getByTestId(`approve-${id}`).click();
    await alice.getByTestId('approve-dialog').waitFor();
    await alice.getByTestId('approve-confirm').click();
    await alice.getByTestId('approve-result').waitFor({ timeout: 30_000 });
    await waitForPromotionStatus(stack.baseUrl, id, 'merged', { timeoutMs: 90_000 });
    await screenshot(alice, 'approvals-approved');
  });
});
