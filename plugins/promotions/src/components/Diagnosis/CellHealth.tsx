import { useState } from 'react';
import { DiagnosisBrief, LadderServiceCell, ProductRef, cellBrief } from '@refplat/plugin-promotions-common';
import { HealthChip } from '../common/HealthChip';
import { DiagnosisPanel } from './DiagnosisPanel';
import { DIAGNOSIS_LABELS } from './DiagnosisStateChip';
import { HOP_LABELS } from './HopReadingLine';

/** What the chip says of a diagnosis: its state, the hop where it stands, and why. */
function diagnosisLine(diagnosis: DiagnosisBrief): string {
  const hop = diagnosis.decidingHop;
  const where = hop ? ` at ${HOP_LABELS[hop.hop]}` : '';
  const why = hop?.evidence || diagnosis.likelyCause;
  return `${DIAGNOSIS_LABELS[diagnosis.state]}${where}${why ? `: ${why}` : ''}`;
}

/**
 * A cell's health chip. When the deployment is stuck, in progress or
 * unknown, the chip itself opens the diagnosis: no separate icon to learn.
 */
export const CellHealth = (props: {
  product: ProductRef;
  stage: string;
  service: string;
  cell: LadderServiceCell;
}) => {
  const [open, setOpen] = useState(false);
  const { cell } = props;
  // The brief says what the chip needs in either form of the ladder; the panel reads the rest.
  const diagnosis = cellBrief(cell).diagnosis;
  return (
    <>
      <span data-diagnosis={diagnosis?.state} data-testid={`health-${props.stage}-${props.service}`}>
        <HealthChip
          verdict={cell.verdict}
          reasons={cell.reasons}
          details={diagnosis && diagnosisLine(diagnosis)}
          onClick={diagnosis ? () => setOpen(true) : undefined}
        />
      </span>
      {open && (
        <DiagnosisPanel
          product={props.product}
          stage={props.stage}
          service={props.service}
          cell={cell}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
};
