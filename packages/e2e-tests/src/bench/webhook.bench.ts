import { execFileSync } from 'child_process';
import { Browser, Page } from 'playwright-core';
import { digestFor, releasePath, setReleaseDigest } from '@refplat/platform-sim';
import { RunningStack, callPromotions, putPlatformFiles } from '../__testUtils__/stack';
import { launchBrowser, openShop } from '../__testUtils__/browser';
import { WebhookMerge, measureWebhookMerge, startWebhookStack } from '../__testUtils__/webhookMerge';
import { latencySummary, machine, writeResult } from './__testUtils__/benchResults';

/**
 * Benchmark, not a test: run with `npm run bench`. The browser suite's
 * webhook measurement (webhookMerge.ts), repeated: each round lands a new
 * build of one alpha/shop Service in staging, bob requests its promotion to
 * prod, alice merges the PR by hand on GitHub, and the open ladder's time to
 * show it is taken. Percentiles over BENCH_WEBHOOK_MERGES merges.
 */
const MERGES = Number(process.env.BENCH_WEBHOOK_MERGES ?? 10);
const PRODUCT = { team: 'alpha', product: 'shop' };
const SERVICES = ['storefront', 'cart', 'checkout'];
const STAGING_HEALTHY_TIMEOUT_MS = 60_000;

jest.setTimeout(600_000);

describe('webhook → browser benchmark', () => {
  let stack: RunningStack;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    stack = await startWebhookStack();
    browser = await launchBrowser();
    page = await openShop(browser, stack.baseUrl, 'bob');
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /** A new build of `service` lands in staging on main, as a person editing the Release on GitHub would. */
  async function landInStaging(service: string, digest: string) {
    const file = releasePath({ ...PRODUCT, stage: 'staging' });
    const text = execFileSync('git', ['--git-dir', stack.sim.repoDir, 'show', `main:${file}`], { encoding: 'utf8' });
    await putPlatformFiles(stack, `bench: ${service} ${digest.slice(7, 19)} to staging`, {
      [file]: setReleaseDigest(text, service, digest),
    });
    const deadline = Date.now() + STAGING_HEALTHY_TIMEOUT_MS;
    for (;;) {
      const { body } = await callPromotions(stack.baseUrl, 'bob', 'GET', '/products/alpha/shop/ladder');
      const cell = body.stages?.find((stage: { name: string }) => stage.name === 'staging')?.services[service];
      if (cell?.digest === digest && cell.healthy) return;
      if (Date.now() > deadline) throw new Error(`${service} ${digest} not healthy in staging: ${JSON.stringify(cell)}`);
      await new Promise(resolve => setTimeout(resolve, 250));
    }
  }

  it('measures merges on GitHub reaching the open ladder', async () => {
    const merges: WebhookMerge[] = [];
    for (let round = 0; round < MERGES; round++) {
      const service = SERVICES[round % SERVICES.length];
      await landInStaging(service, digestFor(`alpha/shop/${service}:webhook-bench-${round}`));
      merges.push(await measureWebhookMerge(stack, page, service));
    }
    writeResult('webhook.json', {
      product: 'alpha/shop, prod promotions waiting for approval, merged by hand on GitHub',
      gatePoll: '1 h (the webhook moves the promotion)',
      ladderPoll: '10 s (the signal updates the ladder)',
      merges: MERGES,
      machine: machine(),
      mergeToSignal: latencySummary(merges.flatMap(m => (m.signalMs === undefined ? [] : [m.signalMs]))),
      mergeToLadder: latencySummary(merges.map(m => m.ladderMs)),
      mergeToPromotionMerged: latencySummary(merges.map(m => m.promotionMs)),
      webhookDeliveries: stack.sim.webhooks.deliveries().length,
      rejectedDeliveries: stack.sim.webhooks.deliveries().filter(d => d.status !== 202).length,
    });
    expect(merges).toHaveLength(MERGES);
  });
});
