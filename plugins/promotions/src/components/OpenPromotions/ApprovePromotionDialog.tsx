import { Typography } from '@material-ui/core';
import Alert from '@material-ui/lab/Alert';
import { useApi } from '@backstage/core-plugin-api';
import { Promotion } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../../api';
import { useSubmitAction } from '../../hooks/useSubmitAction';
import { ActorName } from '../common/ActorName';
import { ApproverNames } from '../common/ApproverNames';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { PromotionStatusChip } from '../common/PromotionStatusChip';
import { PullRequestLink } from '../common/PullRequestLink';
import { useSectionStyles } from '../common/styles';
import { PromotionDigests } from './PromotionDigests';

/** Asks a release-approver to confirm exactly which digests go in, then approves. */
export const ApprovePromotionDialog = (props: {
  promotion: Promotion;
  onApproved: () => void;
  onClose: () => void;
}) => {
  const classes = useSectionStyles();
  const api = useApi(promotionsApiRef);
  const approve = useSubmitAction(
    () => api.approvePromotion(props.promotion.id),
    props.onApproved,
  );
  const approved = approve.result;
  const promotion = approved ?? props.promotion;

  return (
    <ConfirmDialog
      testIdPrefix="approve"
      title={
        <>
          Approve promotion {promotion.fromStage} → {promotion.toStage}
        </>
      }
      confirmLabel="Approve"
      busyLabel="Approving…"
      busy={approve.busy}
      error={approve.error}
      done={!!approved}
      onConfirm={approve.submit}
      onClose={props.onClose}
    >
      <Typography data-testid="approve-requester">
        Requested by{' '}
        <strong>
          <ActorName actor={promotion.requestedBy} />
        </strong>{' '}
        in{' '}
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
          Approved
          {approved.approvedBy && (
            <>
              {' '}
              by <ApproverNames approvedBy={approved.approvedBy} />
            </>
          )}
          ; now{' '}
          <PromotionStatusChip status={approved.status} reason={approved.statusReason} />
        </Alert>
      )}
    </ConfirmDialog>
  );
};
