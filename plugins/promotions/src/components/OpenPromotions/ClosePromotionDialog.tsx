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
import { PromotionDigests } from './PromotionDigests';

/** The backend refuses longer reasons (they go whole into the PR comment). */
export const MAX_CLOSING_REASON_CHARS = 1000;

/** How a person ends a promotion before it merges: a release-approver's "no", or its requester taking it back. */
export type PromotionClosing = 'reject' | 'withdraw';

const WORDS: Record<PromotionClosing, { verb: string; doing: string; helper: string }> = {
  reject: { verb: 'Reject', doing: 'Rejecting', helper: 'Written on the pull request and sent to the requester' },
  withdraw: { verb: 'Withdraw', doing: 'Withdrawing', helper: 'Written on the pull request and in the promotion’s trail' },
};

/** Asks why, then rejects or withdraws the promotion: its PR closes with that reason. */
export const ClosePromotionDialog = (props: {
  closing: PromotionClosing;
  promotion: Promotion;
  onClosed: () => void;
  onClose: () => void;
}) => {
  const classes = useSectionStyles();
  const api = useApi(promotionsApiRef);
  const { promotion, closing } = props;
  const words = WORDS[closing];
  const [reason, setReason] = useState('');
  const close = useSubmitAction(
    () =>
      closing === 'reject'
        ? api.rejectPromotion(promotion.id, reason.trim())
        : api.withdrawPromotion(promotion.id, reason.trim()),
    () => {
      props.onClosed();
      props.onClose();
    },
  );
  const route = promotion.kind === 'rollback' ? `rollback of ${promotion.toStage}` : `${promotion.fromStage} → ${promotion.toStage}`;

  return (
    <ConfirmDialog
      testIdPrefix={closing}
      title={
        <>
          {words.verb} promotion {route} of {formatProductRef(promotion)}
        </>
      }
      confirmLabel={words.verb}
      busyLabel={`${words.doing}…`}
      busy={close.busy}
      error={close.error}
      confirmDisabled={!reason.trim()}
      onConfirm={close.submit}
      onClose={props.onClose}
    >
      <Typography>
        Requested by{' '}
        <strong>
          <ActorName actor={promotion.requestedBy} />
        </strong>
        . {words.doing} closes{' '}
        <PullRequestLink pullRequest={promotion.pullRequest} queuedAt={promotion.queuedAt} queueOpening={promotion.queueOpening} /> with your reason; nothing goes
        into {promotion.toStage}.
      </Typography>
      <div className={classes.section}>
        <PromotionDigests promotion={promotion} />
      </div>
      <TextField
        id={`${closing}-reason`}
        className={classes.section}
        label="Reason"
        helperText={words.helper}
        required
        fullWidth
        multiline
        minRows={2}
        value={reason}
        onChange={event => setReason(event.target.value)}
        inputProps={{ 'data-testid': `${closing}-reason`, maxLength: MAX_CLOSING_REASON_CHARS }}
      />
    </ConfirmDialog>
  );
};
