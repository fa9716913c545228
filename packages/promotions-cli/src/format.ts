/** What get-ladder answers, as far as the text output reads it. */
interface LadderView {
  product: string;
  healthError?: string;
  stages: Array<{
    stage: string;
    verdict: string;
    stuck: boolean;
    services: Array<{ service: string; digest: string | null; verdict: string; canary?: string; waitingToClimb?: boolean; hold?: string }>;
  }>;
  openPromotions: Array<{ id: string; toStage: string; status: string; pullRequestUrl: string }>;
}

export interface PromotionView {
  id: string;
  product: string;
  toStage: string;
  status: string;
  statusReason?: string;
  services: Record<string, string>;
  pullRequestUrl: string;
}

const shortDigest = (digest: string | null) => (digest ? digest.replace(/^sha256:/, '').slice(0, 12) : '—');

export function formatLadder(ladder: LadderView): string {
  const lines = [ladder.product, ...(ladder.healthError ? [`health unknown: ${ladder.healthError}`] : [])];
  for (const stage of ladder.stages) {
    lines.push(`${stage.stage}: ${stage.verdict}${stage.stuck ? ' (stuck)' : ''}`);
    for (const cell of stage.services) {
      const notes = [cell.canary && `canary ${cell.canary}`, cell.waitingToClimb && 'newer below', cell.hold && `held: ${cell.hold}`];
      const extra = notes.filter(Boolean).join('; ');
      lines.push(`  ${cell.service.padEnd(16)} ${shortDigest(cell.digest)}  ${cell.verdict}${extra ? `  ${extra}` : ''}`);
    }
  }
  for (const promotion of ladder.openPromotions) {
    lines.push(`open: ${promotion.id} into ${promotion.toStage}, ${promotion.status} ${promotion.pullRequestUrl}`);
  }
  return lines.join('\n');
}

export function formatExplanation(explanation: { text: string }): string {
  return explanation.text;
}

export function formatPromotion(promotion: PromotionView, existing: boolean): string {
  const services = Object.entries(promotion.services)
    .map(([service, digest]) => `${service} ${shortDigest(digest)}`)
    .join(', ');
  return [
    `${existing ? 'Already open' : 'Promotion'} ${promotion.id}: ${promotion.product} into ${promotion.toStage} (${services})`,
    `status: ${promotion.status}${promotion.statusReason ? ` (${promotion.statusReason})` : ''}`,
    `pull request: ${promotion.pullRequestUrl}`,
  ].join('\n');
}

/** What `--wait` waited for, so a pipeline log shows the condition that was met. */
export function formatWaited(promotion: PromotionView, until: 'merged' | 'healthy'): string {
  if (until === 'merged') return `waited until ${promotion.pullRequestUrl} merged`;
  const services = Object.entries(promotion.services)
    .map(([service, digest]) => `${service} ${shortDigest(digest)}`)
    .join(', ');
  return `waited until ${promotion.toStage} runs ${services} healthy`;
}
