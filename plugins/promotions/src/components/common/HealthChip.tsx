import { Chip, Tooltip, makeStyles } from '@material-ui/core';
import { HealthVerdictName } from '@refplat/plugin-promotions-common';

const useStyles = makeStyles(theme => ({
  healthy: { backgroundColor: theme.palette.success.main, color: theme.palette.success.contrastText },
  progressing: { backgroundColor: theme.palette.info.main, color: theme.palette.info.contrastText },
  unhealthy: { backgroundColor: theme.palette.error.main, color: theme.palette.error.contrastText },
  unknown: { backgroundColor: theme.palette.grey[500], color: theme.palette.common.white },
}));

const LABELS: Record<HealthVerdictName, string> = {
  healthy: 'Healthy',
  progressing: 'In progress',
  unhealthy: 'Unhealthy',
  unknown: 'Unknown',
};

/** The verdict as a coloured chip; hovering lists the reasons. */
export const HealthChip = (props: {
  verdict: HealthVerdictName;
  reasons: string[];
}) => {
  const classes = useStyles();
  const chip = (
    <Chip
      size="small"
      label={LABELS[props.verdict]}
      className={classes[props.verdict]}
      data-testid={`health-${props.verdict}`}
    />
  );
  if (props.reasons.length === 0) return chip;
  return (
    <Tooltip title={props.reasons.join(' · ')}>
      <span>{chip}</span>
    </Tooltip>
  );
};
