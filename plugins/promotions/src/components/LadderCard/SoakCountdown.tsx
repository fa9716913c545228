import { Tooltip, Typography, makeStyles } from '@material-ui/core';
import HourglassEmptyIcon from '@material-ui/icons/HourglassEmpty';
import { formatSeconds } from '@refplat/plugin-promotions-common';
import { useElapsedSeconds } from '../../hooks/useElapsedSeconds';

const useStyles = makeStyles(theme => ({
  root: { display: 'flex', alignItems: 'center', gap: theme.spacing(0.5) },
}));

/**
 * "Soaking: 4m 10s left": how long this digest must stay healthy before it
 * may climb, counted down every second until the next ladder refresh.
 */
export const SoakCountdown = (props: { seconds: number; stage: string; testId: string }) => {
  const classes = useStyles();
  const remaining = props.seconds - useElapsedSeconds(props.seconds, props.seconds);
  if (remaining <= 0) return null;
  return (
    <Tooltip
      title={`This digest must stay healthy in ${props.stage} for ${formatSeconds(
        remaining,
      )} more before it may climb`}
    >
      <Typography variant="caption" className={classes.root} data-testid={props.testId}>
        <HourglassEmptyIcon fontSize="inherit" /> Soaking: {formatSeconds(remaining)} left
      </Typography>
    </Tooltip>
  );
};
