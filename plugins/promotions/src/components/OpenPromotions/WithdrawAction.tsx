import { useState } from 'react';
import { Button } from '@material-ui/core';
import { Promotion } from '@refplat/plugin-promotions-common';
import { useWithdrawAccess } from '../../access/useChangeAccess';
import { ClosePromotionDialog } from './ClosePromotionDialog';

/**
 * Withdraw, for the promotion's requester and the Product's approvers while
 * it is live: a request made by mistake need not wait for an approver's "no".
 * Offered to nobody else (there is nothing to explain to them).
 */
export const WithdrawAction = (props: { promotion: Promotion; onWithdrawn: () => void }) => {
  const { promotion } = props;
  const access = useWithdrawAccess(promotion);
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      {access.allowed && (
        <Button size="small" onClick={() => setConfirming(true)} data-testid={`withdraw-${promotion.id}`}>
          Withdraw
        </Button>
      )}
      {/* Stays open after the ladder refreshes and the row goes. */}
      {confirming && (
        <ClosePromotionDialog
          closing="withdraw"
          promotion={promotion}
          onClosed={props.onWithdrawn}
          onClose={() => setConfirming(false)}
        />
      )}
    </>
  );
};
