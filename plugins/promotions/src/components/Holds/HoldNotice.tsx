import { useState } from 'react';
import { Button, Tooltip, Typography, makeStyles } from '@material-ui/core';
import { Hold, ProductRef } from '@refplat/plugin-promotions-common';
import { useChangeAccess } from '../../access/useChangeAccess';
import { ActorName } from '../common/ActorName';
import { ReasonTooltip } from '../common/ReasonTooltip';
import { ResumeHoldDialog } from './ResumeHoldDialog';

const useStyles = makeStyles(theme => ({
  reason: {
    overflowWrap: 'anywhere',
    // Three lines at most on the ladder; the whole reason is on hover.
    display: '-webkit-box',
    WebkitLineClamp: 3,
    WebkitBoxOrient: 'vertical',
    overflow: 'hidden',
  },
  by: { display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: theme.spacing(0.5) },
}));

/**
 * Why a cell is held, by whom, on the cell itself (the Freeze dialog promises
 * everyone sees it), and Resume for those who may lift it.
 */
export const HoldNotice = (props: {
  product: ProductRef;
  hold: Hold;
  /** Holds at an approval stage are lifted by release-approvers only. */
  atApprovalStage: boolean;
  onChanged: () => void;
}) => {
  const classes = useStyles();
  const { hold } = props;
  const [resuming, setResuming] = useState(false);
  const access = useChangeAccess(props.product, 'lift-hold', props.atApprovalStage);
  const key = `${hold.stage}-${hold.service}`;
  const resume = (
    <Button
      size="small"
      color="primary"
      disabled={!access.allowed}
      onClick={() => setResuming(true)}
      data-testid={`resume-${key}`}
    >
      Resume
    </Button>
  );
  return (
    <div data-testid={`hold-notice-${key}`}>
      <Tooltip title={`${hold.reason} (since ${new Date(hold.placedAt).toLocaleString()})`}>
        <Typography variant="caption" component="div" className={classes.reason} data-testid={`hold-reason-${key}`}>
          {hold.reason}
        </Typography>
      </Tooltip>
      <div className={classes.by}>
        <Typography variant="caption" color="textSecondary">
          by <ActorName actor={hold.placedBy} />
        </Typography>
        {access.allowed ? resume : <ReasonTooltip reason={access.reason}>{resume}</ReasonTooltip>}
      </div>
      {resuming && (
        <ResumeHoldDialog
          product={props.product}
          hold={hold}
          onResumed={props.onChanged}
          onClose={() => setResuming(false)}
        />
      )}
    </div>
  );
};
