import { TableCell, TableRow } from '@material-ui/core';
import { Ladder, Promotion } from '@refplat/plugin-promotions-common';
import { ActorName } from '../common/ActorName';
import { ApproverNames } from '../common/ApproverNames';
import { PromotionRoute } from '../common/PromotionRoute';
import { PromotionStatusChip } from '../common/PromotionStatusChip';
import { PullRequestLink } from '../common/PullRequestLink';
import { ApprovalAction } from './ApprovalAction';
import { ApprovalProgress } from './ApprovalProgress';
import { PromotionDigests } from './PromotionDigests';

/** One promotion in flight: where it goes, what it carries, who, its state and approval. */
export const OpenPromotionRow = (props: {
  ladder: Ladder;
  promotion: Promotion;
  onChanged: () => void;
}) => {
  const { ladder, promotion } = props;
  const incidentGate = ladder.stages.find(stage => stage.name === promotion.toStage)?.incidentGate;
  const commanders = incidentGate?.mode === 'approval' ? incidentGate.commanders : undefined;
  return (
    <TableRow data-testid={`open-promotion-${promotion.id}`}>
      <TableCell>
        <PromotionRoute promotion={promotion} />
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
        {promotion.approval && (
          <ApprovalProgress approval={promotion.approval} testId={`approval-progress-${promotion.id}`} />
        )}
      </TableCell>
      <TableCell>
        <ActorName actor={promotion.requestedBy} />
      </TableCell>
      <TableCell>{promotion.approvedBy ? <ApproverNames approvedBy={promotion.approvedBy} /> : '—'}</TableCell>
      <TableCell>
        <PullRequestLink pullRequest={promotion.pullRequest} queuedAt={promotion.queuedAt} />
      </TableCell>
      <TableCell>
        <ApprovalAction product={ladder} promotion={promotion} commanders={commanders} onApproved={props.onChanged} />
      </TableCell>
    </TableRow>
  );
};
