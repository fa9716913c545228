import { InvalidArgumentError } from 'commander';
import { parseWaitTimeout, promotionProgress, PromotionWaitTarget, WaitedStageCell } from '@refplat/plugin-promotions-common';
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
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { promotion } = await client.promotion(requested.id);
    const current = { ...requested, status: promotion.status, statusReason: promotion.statusReason, pullRequestUrl: promotion.pullRequest.url };
    let progress = promotionProgress(current, until);
    if (progress === 'needs-stage') {
      const ladder = await client.invoke<LadderCells>('get-ladder', { product });
      progress = promotionProgress(current, until, stageCells(ladder, current.toStage));
    }
    if (progress === 'ended') {
      throw new CliError(`promotion ${current.id} ${current.status}: ${current.statusReason ?? 'no reason given'}`, EXIT.failed);
    }
    if (progress === 'reached') return current;
    if (Date.now() > deadline) {
      throw new CliError(`timed out waiting for promotion ${current.id} to be ${until}: it is ${current.status}`, EXIT.timedOut);
    }
    await new Promise(resolve => setTimeout(resolve, POLL_MS));
  }
}
