import { Chip, Tooltip, makeStyles } from '@material-ui/core';
import { PromotionStatus } from '@refplat/plugin-promotions-common';

const useStyles = makeStyles(theme => ({
  open: { backgroundColor: theme.palette.info.main, color: theme.palette.info.contrastText },
  'awaiting-approval': {
    backgroundColor: theme.palette.warning.main,
    color: theme.palette.warning.contrastText,
  },
  approved: { backgroundColor: theme.palette.primary.main, color: theme.palette.primary.contrastText },
  merged: { backgroundColor: theme.palette.success.main, color: theme.palette.success.contrastText },
  closed: { backgroundColor: theme.palette.grey[500], color: theme.palette.common.white },
  failed: { backgroundColor: theme.palette.error.main, color: theme.palette.error.contrastText },
}));

/** A promotion's status as people say it. */
export const PROMOTION_STATUS_WORDS: Record<PromotionStatus, string> = {
  open: 'Open',
  'awaiting-approval': 'Awaiting approval',
  approved: 'Approved',
  merged: 'Merged',
  closed: 'Closed',
  failed: 'Failed',
};

/** A promotion's status; hovering tells why it is closed, failed or waiting. */
export const PromotionStatusChip = (props: {
  status: PromotionStatus;
  reason?: string;
  testId?: string;
}) => {
  const classes = useStyles();
  const chip = (
    <Chip
      size="small"
      label={PROMOTION_STATUS_WORDS[props.status] ?? props.status}
      className={classes[props.status]}
      data-testid={props.testId}
      data-status={props.status}
    />
  );
  if (!props.reason) return chip;
  return (
    <Tooltip title={props.reason}>
      <span>{chip}</span>
    </Tooltip>
  );
};
