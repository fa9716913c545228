import { LinearProgress, Typography } from '@material-ui/core';
import { LadderCanary } from '@refplat/plugin-promotions-common';

function describeCanary(canary: LadderCanary): string {
  if (canary.aborted) return 'Canary aborted';
  const step = `step ${Math.min(canary.currentStep + 1, canary.totalSteps)} of ${canary.totalSteps}`;
  const pause = canary.paused
    ? `, paused${canary.pausedForSeconds !== undefined ? ` ${canary.pausedForSeconds}s` : ''}${
        canary.pauseDurationSeconds !== undefined ? ` of ${canary.pauseDurationSeconds}s` : ''
      }`
    : '';
  return `Canary ${step}: ${canary.weight}% of traffic${pause}`;
}

/** Where a canary stands; nothing once it has completed. */
export const CanaryProgress = (props: { canary?: LadderCanary }) => {
  const { canary } = props;
  if (!canary || (canary.complete && !canary.aborted)) return null;
  return (
    <div data-testid="canary">
      <LinearProgress
        variant="determinate"
        value={canary.weight}
        color={canary.aborted ? 'secondary' : 'primary'}
      />
      <Typography variant="caption">{describeCanary(canary)}</Typography>
    </div>
  );
};
