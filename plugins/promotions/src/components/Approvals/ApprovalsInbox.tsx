import { useState } from 'react';
import { InfoCard, Progress } from '@backstage/core-components';
import { CannotReadPanel } from '../common/CannotReadPanel';
import { useApi } from '@backstage/core-plugin-api';
import { Typography } from '@material-ui/core';
import useAsyncRetry from 'react-use/esm/useAsyncRetry';
import { Promotion } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../../api';
import { ApprovePromotionDialog } from '../OpenPromotions/ApprovePromotionDialog';
import { ApprovalsTable } from './ApprovalsTable';
import { ClosePromotionDialog } from '../OpenPromotions/ClosePromotionDialog';

/**
 * A release-approver's (or incident commander's) work queue: every promotion
 * awaiting their approval, oldest first, with its source stage's health and
 * soak (the backend decides what they may approve), approved or rejected in
 * place through the same dialog as on the ladder.
 */
export const ApprovalsInbox = () => {
  const api = useApi(promotionsApiRef);
  const inbox = useAsyncRetry(() => api.listApprovals(), [api]);
  // Kept here, not in the row: the dialog shows the outcome after the row has gone.
  const [approving, setApproving] = useState<Promotion>();
  const [rejecting, setRejecting] = useState<Promotion>();
  const promotions = inbox.value;

  return (
    <InfoCard title="Awaiting your approval" subheader="Oldest first">
      {!promotions && !inbox.error && <Progress />}
      {inbox.error && !promotions && <CannotReadPanel what="the approvals" error={inbox.error} />}
      {promotions?.length === 0 && (
        <Typography color="textSecondary" data-testid="approvals-empty">
          Nothing waits for your approval.
        </Typography>
      )}
      {promotions && promotions.length > 0 && (
        <ApprovalsTable
          promotions={promotions}
          now={new Date()}
          onApprove={setApproving}
          onReject={setRejecting}
        />
      )}
      {approving && (
        <ApprovePromotionDialog
          promotion={approving}
          onApproved={inbox.retry}
          onClose={() => setApproving(undefined)}
        />
      )}
      {rejecting && (
        <ClosePromotionDialog
          closing="reject"
          promotion={rejecting}
          onClosed={inbox.retry}
          onClose={() => setRejecting(undefined)}
        />
      )}
    </InfoCard>
  );
};
