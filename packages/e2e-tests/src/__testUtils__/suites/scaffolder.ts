import fs from 'fs';
import path from 'path';
import { Browser } from 'playwright-core';
import { parse } from 'yaml';
import { SharedStack } from '../sharedStack';
import { SuiteProduct } from '../products';
import { callPromotions, RunningStack, userToken } from '../stack';
import { screenshot, signIn } from '../browser';

const TEMPLATE = path.resolve(__dirname, '../../../../../examples/templates/promote-service/template.yaml');

/** What the scaffolder's dry-run route answers, as far as these tests read it. */
interface DryRunResult {
  status: number;
  body: {
    output?: { links?: Array<{ title: string; url: string }>; text?: Array<{ title: string; content: string }> };
    log?: Array<{ body: { message: string; stepId?: string; status?: string } }>;
    steps?: Array<{ id: string }>;
    error?: { name: string; message: string };
  };
}

/** The scaffolder dry run of the demo template, as the template editor sends it, as a demo user. */
async function dryRun(baseUrl: string, user: string, values: Record<string, unknown>): Promise<DryRunResult> {
  const response = await fetch(`${baseUrl}/api/scaffolder/v2/dry-run`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await userToken(baseUrl, user)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ template: parse(fs.readFileSync(TEMPLATE, 'utf8')), values, directoryContents: [] }),
  });
  return { status: response.status, body: await response.json() };
}

/** Runs the demo template as a real scaffolder task, as the Create page does; answers its status and output. */
async function runTask(baseUrl: string, user: string, values: Record<string, unknown>) {
  const headers = { authorization: `Bearer ${await userToken(baseUrl, user)}`, 'content-type': 'application/json' };
  const created = await fetch(`${baseUrl}/api/scaffolder/v2/tasks`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ templateRef: 'template:default/promote-service', values }),
  });
  expect(created.status).toBe(201);
  const { id } = await created.json();
  const deadline = Date.now() + 180_000;
  let status = 'open';
  while (!['completed', 'failed', 'cancelled'].includes(status)) {
    if (Date.now() > deadline) throw new Error(`task ${id} still ${status}`);
    await new Promise(resolve => setTimeout(resolve, 500));
    status = (await (await fetch(`${baseUrl}/api/scaffolder/v2/tasks/${id}`, { headers })).json()).status;
  }
  const events: Array<{ type: string; body: { message?: string; output?: DryRunResult['body']['output'] } }> = await (
    await fetch(`${baseUrl}/api/scaffolder/v2/tasks/${id}/events`, { headers })
  ).json();
  const completion = events.find(event => event.type === 'completion');
  return { status, output: completion?.body.output, log: events.map(event => event.body.message).join('\n') };
}

const logText = (result: DryRunResult) => (result.body.log ?? []).map(line => line.body.message).join('\n');

/** Polls `product`'s ladder until `stage` runs `service` at the digest `stage below` runs, healthy; fails saying where it stood. */
async function waitUntilCaughtUp(baseUrl: string, product: SuiteProduct, stage: string, below: string, service: string) {
  const deadline = Date.now() + 90_000;
  let last = 'no answer';
  while (Date.now() < deadline) {
    const { body } = await callPromotions(baseUrl, 'bob', 'GET', `${product.route}/ladder`);
    const cell = (name: string) => body.stages?.find((s: { name: string }) => s.name === name)?.services[service];
    last = JSON.stringify({ [stage]: cell(stage), [below]: cell(below) });
    if (cell(stage)?.verdict === 'healthy' && cell(stage)?.digest === cell(below)?.digest) return;
    await new Promise(resolve => setTimeout(resolve, 500));
  }
  throw new Error(`${stage} did not run ${below}'s ${service} healthy within 90 s: ${last}`);
}

/** The demo template's promotions:request step, through the demo backend's scaffolder, against the simulator, on a Product of its own. */
export function scaffolderSuite(shared: SharedStack): void {
  describe("the promote-service template in the demo backend's scaffolder", () => {
    let stack: RunningStack;
    let browser: Browser;
    let shop: SuiteProduct;

    beforeAll(async () => {
      ({ stack, browser } = shared);
      shop = await shared.addProduct('shop-scaffolder');
    });

    it('is in the demo catalog', async () => {
      const token = await userToken(stack.baseUrl, 'bob');
      const response = await fetch(`${stack.baseUrl}/api/catalog/entities/by-name/template/default/promote-service`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
      expect((await response.json()).spec.steps[0].action).toBe('promotions:request');
    });

    it('runs as a real task for bob and waits until test runs the new storefront healthy', async () => {
      const task = await runTask(stack.baseUrl, 'bob', {
        product: shop.ref,
        toStage: 'test',
        services: ['storefront'],
        wait: 'healthy',
        timeout: '150s',
      });
      // A failed task says why.
      if (task.status !== 'completed') throw new Error(`the task ${task.status}:\n${task.log}`);
      expect(task).toMatchObject({ status: 'completed' });
      expect(task.log).toMatch(/Waiting up to 150s until it is healthy/);
      const [, id] = /^Promotion `([0-9a-f-]{36})` into test is \*\*merged\*\*\./.exec(task.output!.text![0].content) ?? [];
      const { body } = await callPromotions(stack.baseUrl, 'bob', 'GET', `/promotions/${id}`);
      expect(body.promotion).toMatchObject({ status: 'merged', requestedBy: 'user:default/bob' });
      const ladder = await callPromotions(stack.baseUrl, 'bob', 'GET', `${shop.route}/ladder`);
      const test = ladder.body.stages.find((stage: { name: string }) => stage.name === 'test');
      expect(test.services.storefront).toMatchObject({ digest: body.promotion.services.storefront, verdict: 'healthy' });
    });

    it('requests a promotion as bob in a dry run and waits until it is merged, answering its PR and final status', async () => {
      // The task above left test running the new storefront healthy: uat may take it.
      const result = await dryRun(stack.baseUrl, 'bob', {
        product: shop.ref,
        toStage: 'uat',
        services: ['storefront'],
        wait: 'merged',
        timeout: '150s',
      });
      expect(result.status).toBe(200);
      const [link] = result.body.output!.links!;
      expect(link).toMatchObject({ title: 'Release pull request', url: expect.stringMatching(/\/refplat\/platform\/pull\/\d+$/) });
      const [text] = result.body.output!.text!;
      const [, id] = /^Promotion `([0-9a-f-]{36})` into uat is \*\*merged\*\*\./.exec(text.content) ?? [];
      expect(id).toBeDefined();
      expect(logText(result)).toMatch(/Dry run: the promotion is requested for real/);
      expect(logText(result)).toMatch(/Waiting up to 150s until it is merged/);

      // The promotion is real and bob's: the backend saw his credentials, not the scaffolder's.
      const { body } = await callPromotions(stack.baseUrl, 'bob', 'GET', `/promotions/${id}`);
      expect(body.promotion).toMatchObject({
        status: 'merged',
        toStage: 'uat',
        requestedBy: 'user:default/bob',
        pullRequest: { url: link.url },
      });
      expect(Object.keys(body.promotion.services)).toEqual(['storefront']);
    });

    it("fails the step with the backend's reason when the rules refuse (409)", async () => {
      // beta/payments is identical on every stage: nothing to promote.
      const result = await dryRun(stack.baseUrl, 'alice', { product: 'beta/payments', toStage: 'test', services: [], wait: 'merged' });
      // The step's error keeps the backend's name, so the dry run answers 409 too.
      expect(result.status).toBe(409);
      expect(result.body.error).toMatchObject({
        name: 'ConflictError',
        message: expect.stringMatching(/^The promotions backend answered 409; caused by ConflictError: Promotion into test refused: /),
      });
    });

    it('fails the step for a Product the user does not own (403): the permissions are the user\'s', async () => {
      const result = await dryRun(stack.baseUrl, 'bob', { product: 'beta/payments', toStage: 'test', services: [], wait: 'merged' });
      expect(result.status).toBe(403);
      expect(result.body.error).toMatchObject({
        name: 'NotAllowedError',
        message: expect.stringMatching(/^The promotions backend answered 403; caused by NotAllowedError: .*user:default\/bob may not change beta\/payments/),
      });
    });

    it('runs from the Create page for bob: Promote a Service into staging, and the finished task links to its Release PR', async () => {
      // The dry run above promoted storefront into uat: staging may take it once uat runs it healthy.
      await waitUntilCaughtUp(stack.baseUrl, shop, 'uat', 'test', 'storefront');
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
      await signIn(page, stack.baseUrl, 'bob');
      // The nav's Create item: the catalog page also links to /create now.
      await page.getByTestId('sidebar-root').getByRole('link', { name: 'Create' }).click();
      const card = page.locator('[class*="MuiCard-root"]', { hasText: 'Promote a Service' });
      await card.getByRole('button', { name: 'Choose' }).click();
      await page.waitForURL(/\/create\/templates\/default\/promote-service$/);

      expect(await page.locator('#root_product').inputValue()).toBe('alpha/shop');
      // This suite's Product in place of the template's default.
      await page.locator('#root_product').fill(shop.ref);
      await page.getByRole('button', { name: /Into stage/ }).click();
      await page.getByRole('option', { name: 'staging' }).click();
      await page.getByRole('button', { name: 'Add Item' }).click();
      await page.locator('#root_services_0').fill('storefront');
      await page.getByRole('button', { name: 'Review' }).click();
      await screenshot(page, 'scaffolder-review');
      await page.getByRole('button', { name: 'Create' }).click();

      await page.waitForURL(/\/create\/tasks\/[0-9a-f-]{36}$/);
      // The task page shows the template's output once the step is done: the PR link and the promotion's status.
      const prLink = page.getByRole('link', { name: 'Release pull request' });
      await prLink.waitFor({ timeout: 120_000 });
      const href = await prLink.getAttribute('href');
      expect(href).toMatch(/\/refplat\/platform\/pull\/\d+$/);
      const result = page.getByText(/^Promotion [0-9a-f-]{36} into staging is merged\.$/);
      await result.waitFor();
      await screenshot(page, 'scaffolder-task');
      const [, id] = /^Promotion ([0-9a-f-]{36})/.exec((await result.textContent()) ?? '') ?? [];
      const { body } = await callPromotions(stack.baseUrl, 'bob', 'GET', `/promotions/${id}`);
      expect(body.promotion).toMatchObject({
        status: 'merged',
        toStage: 'staging',
        requestedBy: 'user:default/bob',
        pullRequest: { url: href },
      });
      expect(Object.keys(body.promotion.services)).toEqual(['storefront']);
      await page.context().close();
    });
  });
}
