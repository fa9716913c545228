import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@material-ui/core';
import { Promotion, PromotionApproval } from '@refplat/plugin-promotions-common';
import { ActorName } from '../common/ActorName';
import { ApproverNames } from '../common/ApproverNames';
import { PromotionRoute } from '../common/PromotionRoute';
import { PromotionStatusChip } from '../common/PromotionStatusChip';
import { PullRequestLink } from '../common/PullRequestLink';
import { useCompactTableStyles } from '../common/styles';
import { PromotionDigests } from '../OpenPromotions/PromotionDigests';
import { When } from '../common/When';
import { promotionDuration } from './promotionDuration';

/** Who approved it: everyone, once approved; while a quorum fills, how far it is and who so far. */
const ApprovedBy = (props: { promotion: Promotion; approval?: PromotionApproval }) => {
  const { promotion, approval } = props;
  if (promotion.approvedBy) return <ApproverNames approvedBy={promotion.approvedBy} />;
  if (!approval?.approvals.length) return <>—</>;
  return (
    <>
      {approval.progress}: <ApproverNames approvers={approval.approvals.map(a => a.approver)} />
    </>
  );
};

/** Promotions and rollbacks, newest first: when and by whom, what, how it ended and how long it took. */
export const PromotionHistoryTable = (props: {
  promotions: Promotion[];
  /** The live promotions' approvals so far (the ladder's), by promotion id. */
  approvals?: ReadonlyMap<string, PromotionApproval>;
  now: Date;
}) => {
  const classes = useCompactTableStyles();
  return (
    <Table
      size="small"
      aria-label="Promotion history"
      className={classes.table}
    >
      <TableHead>
        <TableRow>
          {[
            'Requested',
            'Stages',
            'Digests',
            'Status',
            'Approved by',
            'PR',
            'Took',
          ].map(heading => (
            <TableCell key={heading}>{heading}</TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {props.promotions.map(promotion => (
          <TableRow
            key={promotion.id}
            data-testid={`history-promotion-${promotion.id}`}
          >
            <TableCell>
              <Typography variant="body2" className={classes.nowrap}>
                <When date={promotion.createdAt} />
              </Typography>
              <Typography variant="caption" color="textSecondary">
                by <ActorName actor={promotion.requestedBy} />
              </Typography>
            </TableCell>
            <TableCell>
              <PromotionRoute promotion={promotion} />
            </TableCell>
            <TableCell className={classes.nowrap}>
              <PromotionDigests promotion={promotion} />
            </TableCell>
            <TableCell>
              <PromotionStatusChip
                status={promotion.status}
                reason={promotion.rejection ? undefined : promotion.statusReason}
                testId={`history-status-${promotion.id}`}
              />
              {promotion.rejection && (
                <Typography
                  variant="caption"
                  display="block"
                  data-testid={`history-rejection-${promotion.id}`}
                >
                  Rejected by <ActorName actor={promotion.rejection.by} link />:{' '}
                  {promotion.rejection.reason}
                </Typography>
              )}
            </TableCell>
            <TableCell data-testid={`history-approved-by-${promotion.id}`}>
              <ApprovedBy promotion={promotion} approval={props.approvals?.get(promotion.id)} />
            </TableCell>
            <TableCell className={classes.nowrap}>
              <PullRequestLink pullRequest={promotion.pullRequest} />
            </TableCell>
            <TableCell className={classes.nowrap}>
              <Typography
                variant="body2"
                data-testid={`history-took-${promotion.id}`}
              >
                {promotionDuration(promotion, props.now)}
              </Typography>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};
