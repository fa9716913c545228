import { InvalidArgumentError } from 'commander';
import { CliError, EXIT, PromotionsClient } from './client';
import type { PromotionView } from './format';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const POLL_MS = 1000;
/** A promotion that ends here never reaches merged. */
const ENDED = new Set(['closed', 'failed']);

/** `90s`, `15m`, `1h`, `500ms` in milliseconds. */
export function parseDuration(value: string): number {
  const match = /^(\d+)(ms|s|m|h)$/.exec(value.trim());
  if (!match) throw new InvalidArgumentError('use a number and a unit: 500ms, 90s, 15m, 1h');
  return Number(match[1]) * UNIT_MS[match[2]];
}

type LadderCells = { stages: Array<{ stage: string; services: Array<{ service: string; digest: string | null; verdict: string }> }> };

/** Whether the stage releases each promoted digest and runs it healthy. */
function runsHealthy(ladder: LadderCells, promotion: PromotionView): boolean {
  const stage = ladder.stages.find(candidate => candidate.stage === promotion.toStage);
  return Object.entries(promotion.services).every(([service, digest]) => {
    const cell = stage?.services.find(candidate => candidate.service === service);
    return cell?.digest === digest && cell.verdict === 'healthy';
  });
}

/** Polls until the promotion is merged (and, for `healthy`, runs healthy), or the timeout passes. */
export async function waitFor(
  client: PromotionsClient,
  product: string,
  requested: PromotionView,
  until: 'merged' | 'healthy',
  timeoutMs: number,
): Promise<PromotionView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { promotion } = await client.promotion(requested.id);
    const current = { ...requested, status: promotion.status, statusReason: promotion.statusReason, pullRequestUrl: promotion.pullRequest.url };
    if (ENDED.has(current.status)) {
      throw new CliError(`promotion ${current.id} ${current.status}: ${current.statusReason ?? 'no reason given'}`, EXIT.failed);
    }
    if (current.status === 'merged') {
      if (until === 'merged') return current;
      if (runsHealthy(await client.invoke<LadderCells>('get-ladder', { product }), current)) return current;
    }
    if (Date.now() > deadline) {
      throw new CliError(`timed out waiting for promotion ${current.id} to be ${until}: it is ${current.status}`, EXIT.timedOut);
    }
    await new Promise(resolve => setTimeout(resolve, POLL_MS));
  }
}
