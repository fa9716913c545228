import { Chip, Tooltip, makeStyles } from '@material-ui/core';
import { HealthVerdictName } from '@refplat/plugin-promotions-common';

const useStyles = makeStyles(theme => ({
  healthy: { backgroundColor: theme.palette.success.main, color: theme.palette.success.contrastText },
  progressing: { backgroundColor: theme.palette.info.main, color: theme.palette.info.contrastText },
  unhealthy: { backgroundColor: theme.palette.error.main, color: theme.palette.error.contrastText },
  unknown: { backgroundColor: theme.palette.grey[500], color: theme.palette.common.white },
}));

export const HEALTH_WORDS: Record<HealthVerdictName, string> = {
  healthy: 'Healthy',
  progressing: 'In progress',
  unhealthy: 'Unhealthy',
  unknown: 'Unknown',
};

/**
 * The verdict as a coloured chip; hovering lists the reasons. With
 * `onClick` it opens the details (the diagnosis) and says so on hover.
 */
export const HealthChip = (props: {
  verdict: HealthVerdictName;
  reasons: string[];
  /** What opening it shows, e.g. "Stuck: ArgoCD has not synced for 12m". */
  details?: string;
  onClick?: () => void;
}) => {
  const classes = useStyles();
  const chip = (
    <Chip
      size="small"
      label={HEALTH_WORDS[props.verdict]}
      className={classes[props.verdict]}
      onClick={props.onClick}
      aria-haspopup={props.onClick ? 'dialog' : undefined}
      data-testid={`health-${props.verdict}`}
    />
  );
  const hover = [...props.reasons, ...(props.details ? [`${props.details} (click for the diagnosis)`] : [])];
  if (hover.length === 0) return chip;
  return (
    <Tooltip title={hover.join(' · ')}>
      <span>{chip}</span>
    </Tooltip>
  );
};
