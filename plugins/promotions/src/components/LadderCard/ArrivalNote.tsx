import { Tooltip, Typography } from '@material-ui/core';
import { CellArrival } from '@refplat/plugin-promotions-common';
import { DateTime } from 'luxon';
import { ActorName } from '../common/ActorName';
import { PullRequestLink } from '../common/PullRequestLink';

/** The plugin's own worker: its promotions read "auto-promoted", not "promoted by Auto-promoter". */
const AUTO_PROMOTER = 'plugin:promotions/auto-promoter';

/**
 * "auto-promoted 2 min. ago · #7": how the cell's digest got here, so a
 * digest that climbed on its own (or was rolled back) says so on the ladder.
 */
export const ArrivalNote = (props: { arrival: CellArrival; testId: string }) => {
  const { arrival } = props;
  const merged = DateTime.fromISO(arrival.mergedAt);
  const verb = arrival.kind === 'rollback' ? 'rolled back' : 'promoted';
  const byAutoPromoter = arrival.requestedBy === AUTO_PROMOTER;
  return (
    <Tooltip title={`Merged ${merged.toLocaleString(DateTime.DATETIME_MED)}`}>
      <Typography variant="caption" color="textSecondary" component="div" data-testid={props.testId}>
        {byAutoPromoter ? `auto-${verb}` : verb}
        {!byAutoPromoter && (
          <>
            {' '}by <ActorName actor={arrival.requestedBy} />
          </>
        )}{' '}
        {merged.toRelative({ style: 'short' })} · <PullRequestLink pullRequest={arrival.pullRequest} />
      </Typography>
    </Tooltip>
  );
};
