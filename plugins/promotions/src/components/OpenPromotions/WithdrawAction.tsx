import { Button } from '@material-ui/core';
import { Promotion } from '@refplat/plugin-promotions-common';
import { useWithdrawAccess } from '../../access/useChangeAccess';

/**
 * Withdraw, for the promotion's requester and the Product's approvers while
 * it is live: a request made by mistake need not wait for an approver's "no".
 * Offered to nobody else (there is nothing to explain to them).
 */
export const WithdrawAction = (props: {
  promotion: Promotion;
  /** Opens the withdraw dialog, which the list holds: it outlives this row (see OpenPromotionsList). */
  onWithdraw: () => void;
}) => {
  const access = useWithdrawAccess(props.promotion);
  if (!access.allowed) return null;
  return (
    <Button size="small" onClick={props.onWithdraw} data-testid={`withdraw-${props.promotion.id}`}>
      Withdraw
    </Button>
  );
};
