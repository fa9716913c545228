import { useState } from 'react';
import { Button, Typography } from '@material-ui/core';
import {
  ProductRef,
  Promotion,
  promotionApprovePermission,
} from '@refplat/plugin-promotions-common';
import { useProductPermission } from '../../hooks/useProductPermission';
import { ApprovePromotionDialog } from './ApprovePromotionDialog';

/**
 * For a promotion awaiting approval: the Approve button for release-approvers,
 * and for everyone else who it is waiting for.
 */
export const ApprovalAction = (props: {
  product: ProductRef;
  promotion: Promotion;
  approvers: string[];
  onApproved: () => void;
}) => {
  const { promotion } = props;
  const [confirming, setConfirming] = useState(false);
  const permission = useProductPermission(promotionApprovePermission, props.product);
  const awaiting = promotion.status === 'awaiting-approval';

  let action = null;
  if (awaiting && permission.allowed) {
    action = (
      <Button
        size="small"
        variant="contained"
        color="primary"
        onClick={() => setConfirming(true)}
        data-testid={`approve-${promotion.id}`}
      >
        Approve
      </Button>
    );
  } else if (awaiting && !permission.loading) {
    action = (
      <Typography variant="body2" color="textSecondary">
        Awaiting approval by{' '}
        {props.approvers.length
          ? `members of ${props.approvers.join(', ')}`
          : 'a release-approver'}
      </Typography>
    );
  }

  return (
    <>
      {action}
      {/* Stays open after the approval refreshes the ladder and the button goes. */}
      {confirming && (
        <ApprovePromotionDialog
          promotion={promotion}
          onApproved={props.onApproved}
          onClose={() => setConfirming(false)}
        />
      )}
    </>
  );
};
