import { decidingHop } from '../diagnosis/decidingHop';
import { gateBlocks } from '../diagnosis/gateBlocks';
import type { PromotionChecklistItem } from '../diagnosis/checklistItem';
import type { DiagnosisBrief, Ladder, LadderCellBrief, LadderServiceCell, LadderStage } from './types';

/**
 * A cell's brief as read: every count and list there, none or empty where the wire form left it out.
 *
 * @public
 */
export type CellBrief = LadderCellBrief & {
  failingChecks: number;
  blockingGates: PromotionChecklistItem[];
  otherGates: number;
};

/**
 * The ladder's summary form (`?detail=summary`): every cell without its `checks`, `checklist`
 * and `diagnosis` (most of a wide ladder's bytes), with their `brief` instead, and without
 * the optional fields the ladder's table does not draw (`rolloutHealth`, `healthySince`,
 * `arrivedAt`). The cell route answers all of them.
 *
 * @public
 */
export function summarizeLadder(ladder: Ladder): Ladder {
  return { ...ladder, stages: ladder.stages.map(summarizeStage) };
}

function summarizeStage(stage: LadderStage): LadderStage {
  const services = Object.fromEntries(
    Object.entries(stage.services).map(([service, cell]) => [service, summarizeCell(cell)]),
  );
  return { ...stage, services };
}

function summarizeCell(cell: LadderServiceCell): LadderServiceCell {
  const { checks, checklist, diagnosis, rolloutHealth, healthySince, arrivedAt, ...kept } = cell;
  const { failingChecks, blockingGates, otherGates, ...rest } = cellBrief(cell);
  // What is none or empty stays out: most cells of a wide ladder have nothing to say.
  const brief: LadderCellBrief = rest;
  if (failingChecks) brief.failingChecks = failingChecks;
  if (blockingGates.length) brief.blockingGates = blockingGates;
  if (otherGates) brief.otherGates = otherGates;
  return { ...kept, brief };
}

/**
 * Whether the cell is a summary one: its `checks`, `checklist` and `diagnosis` left out, to be
 * read from the cell route.
 *
 * @public
 */
export function detailsLeftOut(cell: LadderServiceCell): boolean {
  return cell.brief !== undefined;
}

/**
 * A cell's brief, from either form: a summary cell's own, or one made from a full cell's details.
 *
 * @public
 */
export function cellBrief(cell: LadderServiceCell): CellBrief {
  if (cell.brief) {
    const { failingChecks = 0, blockingGates = [], otherGates = 0 } = cell.brief;
    return { ...cell.brief, failingChecks, blockingGates, otherGates };
  }
  const gates = cell.checklist ?? [];
  const blockingGates = gates.filter(gateBlocks);
  const brief: CellBrief = {
    failingChecks: (cell.checks ?? []).filter(check => check.ok === false).length,
    blockingGates,
    otherGates: gates.length - blockingGates.length,
  };
  if (cell.diagnosis && cell.diagnosis.state !== 'ok') {
    const { state, code, likelyCause } = cell.diagnosis;
    const hop = decidingHop(cell.diagnosis);
    const diagnosis: DiagnosisBrief = { state, code, likelyCause };
    if (hop) diagnosis.decidingHop = { hop: hop.hop, mark: hop.mark, evidence: hop.evidence };
    brief.diagnosis = diagnosis;
  }
  return brief;
}
