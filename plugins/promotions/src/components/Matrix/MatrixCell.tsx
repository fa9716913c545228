import { Chip, Typography, makeStyles } from '@material-ui/core';
import { OverviewCell, OverviewVerdict, formatSeconds } from '@refplat/plugin-promotions-common';

const useStyles = makeStyles(theme => ({
  cell: { display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 },
  healthy: { backgroundColor: theme.palette.success.main, color: theme.palette.success.contrastText },
  progressing: { backgroundColor: theme.palette.info.main, color: theme.palette.info.contrastText },
  stuck: { backgroundColor: theme.palette.error.main, color: theme.palette.error.contrastText },
  unknown: { backgroundColor: theme.palette.grey[500], color: theme.palette.common.white },
  chip: { alignSelf: 'flex-start' },
  notes: { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' },
}));

const VERDICT_WORDS: Record<OverviewVerdict, string> = {
  healthy: 'Healthy',
  progressing: 'In progress',
  stuck: 'Stuck',
  unknown: 'Unknown',
};

/** Whether the stage runs what the stage below runs, or how long it has been behind. */
function position(cell: OverviewCell, now: Date): string {
  if (cell.matchesBelow) return 'up to date';
  if (!cell.behindSince) return 'behind';
  return `behind ${formatSeconds((now.getTime() - Date.parse(cell.behindSince)) / 1000)}`;
}

/** One stage of one Product: verdict, up to date or behind, holds and open promotions. */
export const MatrixCell = (props: { cell: OverviewCell; now: Date; testId: string }) => {
  const classes = useStyles();
  const { cell } = props;
  const notes = [
    position(cell, props.now),
    cell.holds ? `${cell.holds} held` : undefined,
    cell.openPromotions
      ? `${cell.openPromotions} open${cell.awaitingApproval ? ` (${cell.awaitingApproval} awaiting approval)` : ''}`
      : undefined,
  ].filter(Boolean);
  return (
    <div className={classes.cell} data-testid={props.testId} data-verdict={cell.verdict}>
      <Chip size="small" label={VERDICT_WORDS[cell.verdict]} className={`${classes.chip} ${classes[cell.verdict]}`} />
      <Typography variant="caption" className={classes.notes} title={notes.join(' · ')}>
        {notes.join(' · ')}
      </Typography>
    </div>
  );
};
