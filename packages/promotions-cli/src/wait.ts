import { InvalidArgumentError } from 'commander';
import { setTimeout } from 'node:timers/promises';
import { parseWaitTimeout, PromotionWaitTarget, WaitedStageCell, waitForPromotion } from '@refplat/plugin-promotions-common';
import { CliError, EXIT, PromotionsClient } from './client';
import type { PromotionView } from './format';

const POLL_MS = 1000;

/** `90s`, `15m`, `1h`, `500ms` or an ISO duration (`PT15M`) in milliseconds. */
export function parseDuration(value: string): number {
  const milliseconds = parseWaitTimeout(value);
  if (milliseconds === undefined) throw new InvalidArgumentError('use a number and a unit: 500ms, 90s, 15m, 1h (or PT15M)');
  return milliseconds;
}

type LadderCells = { stages: Array<{ stage: string; services: Array<{ service: string } & WaitedStageCell> }> };

/** The stage's cells by service, from get-ladder's compact view. */
function stageCells(ladder: LadderCells, stage: string): Record<string, WaitedStageCell> {
  const cells = ladder.stages.find(candidate => candidate.stage === stage)?.services ?? [];
  return Object.fromEntries(cells.map(cell => [cell.service, cell]));
}

/** Polls until the promotion is merged (and, for `healthy`, runs healthy), or the timeout passes. */
export async function waitFor(
  client: PromotionsClient,
  product: string,
  requested: PromotionView,
  until: PromotionWaitTarget,
  timeoutMs: number,
): Promise<PromotionView> {
  const { outcome, promotion } = await waitForPromotion({
    requested,
    until,
    timeoutMs,
    pollIntervalMs: POLL_MS,
    readPromotion: async current => {
      const { promotion: read } = await client.promotion(current.id);
      return { ...current, status: read.status, statusReason: read.statusReason, pullRequestUrl: read.pullRequest.url };
    },
    readStageCells: async current => stageCells(await client.invoke<LadderCells>('get-ladder', { product }), current.toStage),
    sleep: ms => setTimeout(ms),
    now: Date.now,
  });
  if (outcome === 'ended') {
    throw new CliError(`promotion ${promotion.id} ${promotion.status}: ${promotion.statusReason ?? 'no reason given'}`, EXIT.failed);
  }
  if (outcome === 'timed-out') {
    throw new CliError(`timed out waiting for promotion ${promotion.id} to be ${until}: it is ${promotion.status}`, EXIT.timedOut);
  }
  return promotion;
}
