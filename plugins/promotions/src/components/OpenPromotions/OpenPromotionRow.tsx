import { TableCell, TableRow, Typography } from '@material-ui/core';
import { Ladder, Promotion } from '@refplat/plugin-promotions-common';
import { PromotionStatusChip } from '../common/PromotionStatusChip';
import { PullRequestLink } from '../common/PullRequestLink';
import { ApprovalAction } from './ApprovalAction';
import { PromotionDigests } from './PromotionDigests';

/** One promotion of the Product: where it goes, what it carries, who, and its state. */
export const OpenPromotionRow = (props: {
  ladder: Ladder;
  promotion: Promotion;
  onChanged: () => void;
}) => {
  const { ladder, promotion } = props;
  return (
    <TableRow data-testid={`open-promotion-${promotion.id}`}>
      <TableCell>
        <Typography variant="body2" noWrap>
          {promotion.fromStage} → {promotion.toStage}
          {promotion.kind === 'rollback' ? ' (rollback)' : ''}
        </Typography>
      </TableCell>
      <TableCell>
        <PromotionDigests promotion={promotion} />
      </TableCell>
      <TableCell>
        <PromotionStatusChip
          status={promotion.status}
          reason={promotion.statusReason}
          testId={`promotion-status-${promotion.id}`}
        />
      </TableCell>
      <TableCell>{promotion.requestedBy}</TableCell>
      <TableCell>{promotion.approvedBy ?? '—'}</TableCell>
      <TableCell>
        <PullRequestLink pullRequest={promotion.pullRequest} />
      </TableCell>
      <TableCell>
        <ApprovalAction
          product={ladder}
          promotion={promotion}
          approvers={ladder.approvers ?? []}
          onApproved={props.onChanged}
        />
      </TableCell>
    </TableRow>
  );
};
