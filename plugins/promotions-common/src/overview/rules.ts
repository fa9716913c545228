import type { Ladder, LadderStage } from '../ladder/types';
import { isLivePromotion } from '../promotions/livePromotion';
import { differsFromBelow } from '../ladder/rules';
import type { OverviewCell, OverviewRow, OverviewVerdict, StuckItem } from './types';

/** The diagnosis codes whose stall sits on the promotion pull request: stuck since it last moved. */
const PULL_REQUEST_CODES = ['awaiting-approval', 'checks-failing', 'checks-pending'];

function verdictOf(stage: LadderStage): OverviewVerdict {
  if (stage.stuck) return 'stuck';
  // Failing but not past the diagnosis thresholds yet: still moving, as far as anyone can say.
  if (stage.verdict === 'unhealthy') return 'progressing';
  return stage.verdict;
}

/** The earliest of ISO times, or undefined for none. */
function earliest(times: Array<string | undefined>): string | undefined {
  return times
    .filter((time): time is string => !!time)
    .sort((a, b) => Date.parse(a) - Date.parse(b))[0];
}

function cellOf(ladder: Ladder, index: number): OverviewCell {
  const stage = ladder.stages[index];
  const below = index > 0 ? ladder.stages[index - 1] : undefined;
  const differing = Object.entries(stage.services).filter(([, cell]) => differsFromBelow(cell));
  const promotions = ladder.promotions.filter(
    p => p.toStage === stage.name && isLivePromotion(p.status),
  );
  return {
    stage: stage.name,
    verdict: verdictOf(stage),
    matchesBelow: differing.length === 0,
    // Since the differing digests below got there: their merge (the plugin's, else the branch
    // history's), else their first healthy view, which a restarted plugin only knows from then on.
    behindSince: below
      ? earliest(
          differing.map(([service]) => {
            const cell = below.services[service];
            return cell?.arrivedWith?.mergedAt ?? cell?.arrivedAt ?? cell?.healthySince ?? below.releaseSeenAt;
          }),
        )
      : undefined,
    holds: Object.values(stage.services).filter(cell => cell.hold).length,
    openPromotions: promotions.length,
    awaitingApproval: promotions.filter(p => p.status === 'awaiting-approval').length,
  };
}

/**
 * One Product's row of the organisation's matrix, read from its ladder: a
 * cell per stage, bottom stage first.
 *
 * @public
 */
export function overviewRow(
  ladder: Ladder,
  about: { owners: string[]; title?: string },
): OverviewRow {
  return {
    product: `${ladder.team}/${ladder.product}`,
    team: ladder.team,
    title: about.title,
    owners: about.owners,
    cells: ladder.stages.map((_, index) => cellOf(ladder, index)),
  };
}

/**
 * Every diagnosed-stuck service of a Product, with its diagnosis and since
 * when the stalled step has been waiting, when the ladder knows.
 *
 * @public
 */
export function stuckItems(ladder: Ladder, owners: string[]): StuckItem[] {
  const product = `${ladder.team}/${ladder.product}`;
  return ladder.stages.flatMap(stage =>
    Object.entries(stage.services).flatMap(([service, cell]): StuckItem[] => {
      const diagnosis = cell.diagnosis;
      if (diagnosis?.state !== 'stuck') return [];
      const promotion = ladder.promotions.find(
        p => p.toStage === stage.name && service in p.services && isLivePromotion(p.status),
      );
      const stuckSince = PULL_REQUEST_CODES.includes(diagnosis.code)
        ? promotion?.updatedAt
        : stage.releaseSeenAt;
      return [
        {
          product,
          team: ladder.team,
          stage: stage.name,
          service,
          summary: `${service} in ${stage.name}: ${diagnosis.lastCompletedStep}`,
          diagnosis,
          stuckSince,
          owners,
        },
      ];
    }),
  );
}
