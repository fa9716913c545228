import { useEffect, useState } from 'react';
import { Tooltip, Typography, makeStyles } from '@material-ui/core';
import HourglassEmptyIcon from '@material-ui/icons/HourglassEmpty';
import { formatSeconds } from '@refplat/plugin-promotions-common';

const useStyles = makeStyles(theme => ({
  root: { display: 'flex', alignItems: 'center', gap: theme.spacing(0.5) },
}));

/**
 * Seconds left of a soak as the ladder last reported them, counted down
 * locally every second until the next ladder refresh reports them afresh.
 */
function useCountdown(seconds: number): number {
  const [remaining, setRemaining] = useState(seconds);
  useEffect(() => {
    setRemaining(seconds);
    if (seconds <= 0) return undefined;
    // Counted from when the value arrived, not tick by tick, so a throttled
    // background tab does not fall behind.
    const arrived = Date.now();
    const timer = setInterval(() => {
      const left = Math.max(0, seconds - Math.floor((Date.now() - arrived) / 1000));
      setRemaining(left);
      if (left === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [seconds]);
  return remaining;
}

/** "Soaking: 4m 10s left": how long this digest must stay healthy before it may climb. */
export const SoakCountdown = (props: { seconds: number; stage: string; testId: string }) => {
  const classes = useStyles();
  const remaining = useCountdown(props.seconds);
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
