import { useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Typography,
  makeStyles,
} from '@material-ui/core';
import Alert from '@material-ui/lab/Alert';
import { useApi } from '@backstage/core-plugin-api';
import { Promotion } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../../api';
import { errorMessage } from '../common/errorMessage';
import { PromotionStatusChip } from '../common/PromotionStatusChip';
import { PullRequestLink } from '../common/PullRequestLink';
import { PromotionDigests } from './PromotionDigests';

const useStyles = makeStyles(theme => ({
  section: { marginTop: theme.spacing(2) },
}));

/** Asks a release-approver to confirm exactly which digests go in, then approves. */
export const ApprovePromotionDialog = (props: {
  promotion: Promotion;
  onApproved: () => void;
  onClose: () => void;
}) => {
  const classes = useStyles();
  const api = useApi(promotionsApiRef);
  const [approving, setApproving] = useState(false);
  const [approved, setApproved] = useState<Promotion>();
  const [error, setError] = useState<string>();
  const promotion = approved ?? props.promotion;

  const approve = async () => {
    setApproving(true);
    setError(undefined);
    try {
      setApproved(await api.approvePromotion(promotion.id));
      props.onApproved();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setApproving(false);
    }
  };

  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="sm" data-testid="approve-dialog">
      <DialogTitle>
        Approve promotion {promotion.fromStage} → {promotion.toStage}
      </DialogTitle>
      <DialogContent>
        <Typography data-testid="approve-requester">
          Requested by <strong>{promotion.requestedBy}</strong> in{' '}
          <PullRequestLink pullRequest={promotion.pullRequest} />
        </Typography>
        <div className={classes.section}>
          <Typography variant="subtitle2">
            Digests going into {promotion.toStage}
          </Typography>
          <PromotionDigests promotion={promotion} testIdPrefix="approve-change-" />
        </div>
        {approved && (
          <Alert severity="success" className={classes.section} data-testid="approve-result">
            Approved{approved.approvedBy ? ` by ${approved.approvedBy}` : ''}; now{' '}
            <PromotionStatusChip status={approved.status} reason={approved.statusReason} />
          </Alert>
        )}
        {error && (
          <Alert severity="error" className={classes.section} data-testid="approve-error">
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{approved ? 'Close' : 'Cancel'}</Button>
        {!approved && (
          <Button
            color="primary"
            variant="contained"
            disabled={approving}
            onClick={approve}
            data-testid="approve-confirm"
          >
            {approving ? 'Approving…' : 'Approve'}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
};
