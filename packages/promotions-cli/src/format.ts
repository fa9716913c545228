/** What get-ladder answers, as far as the text output reads it. */
interface LadderView {
  product: string;
  healthError?: string;
  stages: Array<{
    stage: string;
    verdict: string;
    stuck: boolean;
    services: Array<{
      service: string;
      digest: string | null;
      verdict: string;
      canary?: string;
      waitingToClimb?: boolean;
      belowAge?: 'newer' | 'older' | 'unknown';
      hold?: string;
    }>;
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

/** The stage below, by digest age: only a digest known to be newer is called newer. */
function belowNote(cell: { waitingToClimb?: boolean; belowAge?: string }): string | undefined {
  if (cell.belowAge === 'older') return 'older below (not promoted: a downgrade)';
  if (!cell.waitingToClimb) return undefined;
  return cell.belowAge === 'newer' ? 'newer below' : 'another digest below';
}

export function formatLadder(ladder: LadderView): string {
  const lines = [ladder.product, ...(ladder.healthError ? [`health unknown: ${ladder.healthError}`] : [])];
  for (const stage of ladder.stages) {
    lines.push(`${stage.stage}: ${stage.verdict}${stage.stuck ? ' (stuck)' : ''}`);
    for (const cell of stage.services) {
      const notes = [cell.canary && `canary ${cell.canary}`, belowNote(cell), cell.hold && `held: ${cell.hold}`];
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
