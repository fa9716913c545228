import { useState } from 'react';
import { IconButton, Tooltip, makeStyles } from '@material-ui/core';
import FindInPageOutlinedIcon from '@material-ui/icons/FindInPageOutlined';
import { DiagnosisState, LadderServiceCell } from '@refplat/plugin-promotions-common';
import { DiagnosisPanel } from './DiagnosisPanel';
import { DIAGNOSIS_LABELS } from './DiagnosisStateChip';

const useStyles = makeStyles(theme => ({
  stuck: { color: theme.palette.error.main },
  'in-progress': { color: theme.palette.info.main },
  unknown: { color: theme.palette.grey[500] },
}));

type ShownState = Exclude<DiagnosisState, 'ok'>;

function isShown(state: DiagnosisState | undefined): state is ShownState {
  return state === 'stuck' || state === 'in-progress' || state === 'unknown';
}

/** Opens the diagnosis of a cell that is stuck, in progress or unknown; nothing otherwise. */
export const DiagnosisButton = (props: {
  stage: string;
  service: string;
  cell: LadderServiceCell;
}) => {
  const classes = useStyles();
  const [open, setOpen] = useState(false);
  const diagnosis = props.cell.diagnosis;
  if (!diagnosis || !isShown(diagnosis.state)) return null;
  const label = `Diagnosis of ${props.service} in ${props.stage}: ${DIAGNOSIS_LABELS[diagnosis.state]}`;
  return (
    <>
      <Tooltip title={`${DIAGNOSIS_LABELS[diagnosis.state]}: ${diagnosis.likelyCause}`}>
        <IconButton
          size="small"
          aria-label={label}
          className={classes[diagnosis.state]}
          onClick={() => setOpen(true)}
          data-testid={`diagnosis-${props.stage}-${props.service}`}
          data-state={diagnosis.state}
        >
          <FindInPageOutlinedIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {open && (
        <DiagnosisPanel
          stage={props.stage}
          service={props.service}
          cell={props.cell}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
};
