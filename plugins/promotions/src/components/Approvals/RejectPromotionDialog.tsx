import { useState } from 'react';
import { TextField, Typography } from '@material-ui/core';
import { useApi } from '@backstage/core-plugin-api';
import { Promotion, formatProductRef } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../../api';
import { useSubmitAction } from '../../hooks/useSubmitAction';
import { ActorName } from '../common/ActorName';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { PullRequestLink } from '../common/PullRequestLink';
import { useSectionStyles } from '../common/styles';
import { PromotionDigests } from '../OpenPromotions/PromotionDigests';

/** The backend refuses longer reasons (they go whole into the PR comment). */
export const MAX_REJECT_REASON_CHARS = 1000;

/** Asks a release-approver why, then rejects: the PR closes with that reason. */
export const RejectPromotionDialog = (props: {
  promotion: Promotion;
  onRejected: () => void;
  onClose: () => void;
}) => {
  const classes = useSectionStyles();
  const api = useApi(promotionsApiRef);
  const { promotion } = props;
  const [reason, setReason] = useState('');
  const reject = useSubmitAction(
    () => api.rejectPromotion(promotion.id, reason.trim()),
    () => {
      props.onRejected();
      props.onClose();
    },
  );

  return (
    <ConfirmDialog
      testIdPrefix="reject"
      title={
        <>
          Reject promotion {promotion.fromStage} → {promotion.toStage} of {formatProductRef(promotion)}
        </>
      }
      confirmLabel="Reject"
      busyLabel="Rejecting…"
      busy={reject.busy}
      error={reject.error}
      confirmDisabled={!reason.trim()}
      onConfirm={reject.submit}
      onClose={props.onClose}
    >
      <Typography>
        Requested by{' '}
        <strong>
          <ActorName actor={promotion.requestedBy} />
        </strong>
        . Rejecting closes <PullRequestLink pullRequest={promotion.pullRequest} /> with your reason;
        nothing goes into {promotion.toStage}.
      </Typography>
      <div className={classes.section}>
        <PromotionDigests promotion={promotion} />
      </div>
      <TextField
        id="reject-reason"
        className={classes.section}
        label="Reason"
        helperText="Written on the pull request and sent to the requester"
        required
        fullWidth
        multiline
        minRows={2}
        value={reason}
        onChange={event => setReason(event.target.value)}
        inputProps={{ 'data-testid': 'reject-reason', maxLength: MAX_REJECT_REASON_CHARS }}
      />
    </ConfirmDialog>
  );
};
