import { Chip, makeStyles } from '@material-ui/core';
import { DiagnosisState } from '@refplat/plugin-promotions-common';

const useStyles = makeStyles(theme => ({
  ok: { backgroundColor: theme.palette.success.main, color: theme.palette.success.contrastText },
  'in-progress': { backgroundColor: theme.palette.info.main, color: theme.palette.info.contrastText },
  stuck: { backgroundColor: theme.palette.error.main, color: theme.palette.error.contrastText },
  unknown: { backgroundColor: theme.palette.grey[500], color: theme.palette.common.white },
}));

export const DIAGNOSIS_LABELS: Record<DiagnosisState, string> = {
  ok: 'OK',
  'in-progress': 'In progress',
  stuck: 'Stuck',
  unknown: 'Unknown',
};

/** Where a deployment stands, as a coloured chip. */
export const DiagnosisStateChip = (props: { state: DiagnosisState; testId?: string }) => {
  const classes = useStyles();
  return (
    <Chip
      size="small"
      label={DIAGNOSIS_LABELS[props.state]}
      className={classes[props.state]}
      data-testid={props.testId}
      data-state={props.state}
    />
  );
};
