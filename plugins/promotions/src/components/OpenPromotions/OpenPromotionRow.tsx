import { Chip, TableCell, TableRow, Typography, makeStyles } from '@material-ui/core';
import { Ladder, Promotion } from '@refplat/plugin-promotions-common';
import { PromotionStatusChip } from '../common/PromotionStatusChip';
import { PullRequestLink } from '../common/PullRequestLink';
import { ApprovalAction } from './ApprovalAction';
import { PromotionDigests } from './PromotionDigests';

const useStyles = makeStyles(theme => ({
  stages: { display: 'flex', alignItems: 'center', gap: theme.spacing(1) },
}));

/** One promotion of the Product: where it goes, what it carries, who, and its state. */
export const OpenPromotionRow = (props: {
  ladder: Ladder;
  promotion: Promotion;
  onChanged: () => void;
}) => {
  const classes = useStyles();
  const { ladder, promotion } = props;
  return (
    <TableRow data-testid={`open-promotion-${promotion.id}`}>
      <TableCell>
        <div className={classes.stages}>
          <Typography variant="body2" noWrap>
            {promotion.kind === 'rollback'
              ? promotion.toStage
              : `${promotion.fromStage} → ${promotion.toStage}`}
          </Typography>
          {promotion.kind === 'rollback' && (
            <Chip
              size="small"
              variant="outlined"
              color="secondary"
              label="rollback"
              data-testid={`rollback-chip-${promotion.id}`}
            />
          )}
        </div>
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
