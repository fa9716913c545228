import { decidingHop } from '../diagnosis/decidingHop';
import { gateBlocks } from '../diagnosis/gateBlocks';
import type { DiagnosisBrief, Ladder, LadderCellBrief, LadderServiceCell, LadderStage } from './types';

/**
 * The ladder's summary form (`?detail=summary`): every cell without its `checks`, `checklist`
 * and `diagnosis` (about two thirds of a wide ladder's bytes), with their `brief` instead.
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
  const { checks, checklist, diagnosis, ...kept } = cell;
  return { ...kept, brief: cellBrief(cell) };
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
export function cellBrief(cell: LadderServiceCell): LadderCellBrief {
  if (cell.brief) return cell.brief;
  const gates = cell.checklist ?? [];
  const blockingGates = gates.filter(gateBlocks);
  const brief: LadderCellBrief = {
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
