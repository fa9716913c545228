import { ReactNode } from 'react';
import { TableCell, TableRow, Typography, makeStyles } from '@material-ui/core';
import { Ladder, Promotion } from '@refplat/plugin-promotions-common';
import { ActorName } from '../common/ActorName';
import { ApproverNames } from '../common/ApproverNames';
import { PromotionRoute } from '../common/PromotionRoute';
import { PromotionStatusChip } from '../common/PromotionStatusChip';
import { PullRequestLink } from '../common/PullRequestLink';
import { ApprovalAction } from './ApprovalAction';
import { ApprovalProgress } from './ApprovalProgress';
import { PromotionDigests } from './PromotionDigests';
import { WithdrawAction } from './WithdrawAction';

const useStyles = makeStyles(theme => ({
  stacked: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: theme.spacing(0.5) },
  action: { maxWidth: theme.spacing(22) },
}));

/** "Requested by Bob Builder": a caption, then who. */
const PeopleLine = (props: { label: string; testId: string; children: ReactNode }) => (
  <Typography component="div" variant="body2" data-testid={props.testId}>
    <Typography component="span" variant="caption" color="textSecondary">
      {props.label}{' '}
    </Typography>
    {props.children}
  </Typography>
);

/** What a person can do to a promotion in flight, each through a dialog. */
export type PromotionAction = 'approve' | 'withdraw';

/** One promotion in flight: where it goes and what it carries, its state and PR, who, and its approval. */
export const OpenPromotionRow = (props: {
  ladder: Ladder;
  promotion: Promotion;
  /** Opens a dialog about this promotion; the list holds it, so that it outlives the row. */
  onAct: (action: PromotionAction) => void;
}) => {
  const classes = useStyles();
  const { ladder, promotion } = props;
  const incidentGate = ladder.stages.find(stage => stage.name === promotion.toStage)?.incidentGate;
  const commanders = incidentGate?.mode === 'approval' ? incidentGate.commanders : undefined;
  return (
    <TableRow data-testid={`open-promotion-${promotion.id}`}>
      <TableCell>
        <div className={classes.stacked}>
          <PromotionRoute promotion={promotion} />
          <div>
            <PromotionDigests promotion={promotion} />
          </div>
        </div>
      </TableCell>
      <TableCell>
        <div className={classes.stacked}>
          <PromotionStatusChip
            status={promotion.status}
            reason={promotion.statusReason}
            testId={`promotion-status-${promotion.id}`}
          />
          {promotion.approval && (
            <ApprovalProgress approval={promotion.approval} testId={`approval-progress-${promotion.id}`} />
          )}
          <Typography component="span" variant="body2">
            PR <PullRequestLink pullRequest={promotion.pullRequest} queuedAt={promotion.queuedAt} queueOpening={promotion.queueOpening} />
          </Typography>
        </div>
      </TableCell>
      <TableCell>
        <PeopleLine label="Requested by" testId={`requested-by-${promotion.id}`}>
          <ActorName actor={promotion.requestedBy} />
        </PeopleLine>
        {promotion.approvedBy && (
          <PeopleLine label="Approved by" testId={`approved-by-${promotion.id}`}>
            <ApproverNames approvedBy={promotion.approvedBy} />
          </PeopleLine>
        )}
      </TableCell>
      <TableCell className={classes.action}>
        <ApprovalAction product={ladder} promotion={promotion} commanders={commanders} onApprove={() => props.onAct('approve')} />
        <WithdrawAction promotion={promotion} onWithdraw={() => props.onAct('withdraw')} />
      </TableCell>
    </TableRow>
  );
};
