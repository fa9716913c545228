import { LinearProgress, Tooltip, Typography } from '@material-ui/core';
import { LadderCanary, describeCanary, formatSeconds } from '@refplat/plugin-promotions-common';
import { useElapsedSeconds } from '../../hooks/useElapsedSeconds';

/** How long an indefinite pause is counted on between refreshes. */
const INDEFINITE_PAUSE_LIMIT_SECONDS = 24 * 3600;

/** "paused 2s of 3s", counted on every second between ladder refreshes. */
const CanaryPause = (props: { canary: LadderCanary }) => {
  const { pausedForSeconds = 0, pauseDurationSeconds, pausedSince } = props.canary;
  const limit =
    pauseDurationSeconds === undefined
      ? INDEFINITE_PAUSE_LIMIT_SECONDS
      : Math.max(0, pauseDurationSeconds - pausedForSeconds);
  const paused = pausedForSeconds + useElapsedSeconds(`${pausedSince}|${pausedForSeconds}`, limit);
  let text = `paused ${formatSeconds(paused)}`;
  if (pauseDurationSeconds === undefined) text += ', waits for a promote';
  else if (paused >= pauseDurationSeconds) text = 'pause over, resuming…';
  else text += ` of ${formatSeconds(pauseDurationSeconds)}`;
  return (
    <Typography variant="caption" display="block" data-testid="canary-pause">
      {text}
    </Typography>
  );
};

/** Where a canary stands, its full description on hover; nothing once it has completed. */
export const CanaryProgress = (props: { canary?: LadderCanary }) => {
  const { canary } = props;
  if (!canary || (canary.complete && !canary.aborted)) return null;
  const step = Math.min(canary.currentStep + 1, canary.totalSteps);
  return (
    <Tooltip title={describeCanary(canary)}>
      <div data-testid="canary">
        <LinearProgress
          variant="determinate"
          value={canary.weight}
          color={canary.aborted ? 'secondary' : 'primary'}
        />
        <Typography variant="caption" display="block">
          {canary.aborted
            ? 'Canary aborted'
            : `Canary step ${step} of ${canary.totalSteps} · ${canary.weight}%`}
        </Typography>
        {canary.paused && !canary.aborted && <CanaryPause canary={canary} />}
      </div>
    </Tooltip>
  );
};
