import { Page } from 'playwright-core';
import { signalsOf } from './pageSignals';
import { RunningStack, callPromotions, startStack, waitForPromotionStatus } from './stack';

/** How long the open ladder may take to show a merge before the measurement fails: its own poll is 10 s. */
const LADDER_SHOWS_MERGE_TIMEOUT_MS = 8_000;

/** `promotions.gate` for a stack on which a merge must reach the ladder through the webhook: the Gate polls once an hour. */
export const WEBHOOK_GATE = { enabled: true, frequency: { hours: 1 } };

/**
 * The stack webhook latency is measured on: the simulated GitHub delivers
 * signed webhooks, and the Gate polls once an hour, so a merge reaches the
 * ladder through the webhook (signed delivery → events backend → promotions
 * backend → signal), not through a poll.
 */
export function startWebhookStack(): Promise<RunningStack> {
  return startStack({ canaryStepMs: 500, syncDelayMs: 200 }, { gate: WEBHOOK_GATE }, { webhooks: true });
}

export interface WebhookMerge {
  promotionId: string;
  /** The digest the merge brought to prod. */
  digest: string;
  /** From the merge on GitHub until the open ladder showed the digest. */
  ladderMs: number;
  /** From the merge on GitHub until the page's first signal about the Product; undefined when none came before the digest showed. */
  signalMs?: number;
  /** From the merge on GitHub until the promotion's status read `merged`. */
  promotionMs: number;
}

/**
 * bob requests a prod promotion of one Service of `product` (alpha/shop unless
 * named; it waits for approval), alice merges its PR by hand on GitHub, and the
 * time is taken until `page` — the Product's open ladder, opened by
 * `openSystem`, so listening to its signals — shows the digest in prod, and
 * until the promotion reads merged.
 */
export async function measureWebhookMerge(
  stack: RunningStack,
  page: Page,
  service: string,
  product = 'alpha/shop',
): Promise<WebhookMerge> {
  const requested = await callPromotions(stack.baseUrl, 'bob', 'POST', `/products/${product}/promotions`, {
    toStage: 'prod',
    services: [service],
  });
  const promotion = requested.body.promotion;
  if (requested.status !== 201 || promotion?.status !== 'awaiting-approval') {
    throw new Error(`the prod promotion was not left waiting for approval: ${requested.status} ${JSON.stringify(requested.body)}`);
  }
  const digest: string = promotion.services[service];
  const prodCell = `[data-testid="cell-prod-${service}"] [data-testid="digest"]`;
  await page.locator(prodCell).waitFor();
  if ((await page.locator(prodCell).getAttribute('data-digest')) === digest) {
    throw new Error(`prod already shows ${digest} before the merge`);
  }

  const mergedAt = Date.now();
  const merge = await fetch(`${stack.sim.githubApiUrl}/repos/refplat/platform/pulls/${promotion.pullRequest.number}/merge`, {
    method: 'PUT',
    headers: { authorization: 'token sim-alice-token', 'content-type': 'application/json' },
    body: '{}',
  });
  if (merge.status !== 200) throw new Error(`merging PR #${promotion.pullRequest.number} answered ${merge.status}`);
  await page.waitForFunction(
    ([selector, expected]) => document.querySelector(selector)?.getAttribute('data-digest') === expected,
    [prodCell, digest],
    { timeout: LADDER_SHOWS_MERGE_TIMEOUT_MS },
  );
  const ladderMs = Date.now() - mergedAt;
  const signalMs = signalsOf(page).firstSignalAfter(`promotions:${product}`, mergedAt);
  await waitForPromotionStatus(stack.baseUrl, promotion.id, 'merged', { timeoutMs: 10_000, pollMs: 100 });
  return { promotionId: promotion.id, digest, ladderMs, signalMs, promotionMs: Date.now() - mergedAt };
}
