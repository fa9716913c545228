import { Table, TableBody, TableCell, TableHead, TableRow, Typography, makeStyles } from '@material-ui/core';
import { Promotion } from '@refplat/plugin-promotions-common';
import { ActorName } from '../common/ActorName';
import { PromotionRoute } from '../common/PromotionRoute';
import { PromotionStatusChip } from '../common/PromotionStatusChip';
import { PullRequestLink } from '../common/PullRequestLink';
import { PromotionDigests } from '../OpenPromotions/PromotionDigests';
import { promotionDuration } from './promotionDuration';

const useStyles = makeStyles({
  nowrap: { whiteSpace: 'nowrap', verticalAlign: 'top' },
  top: { verticalAlign: 'top' },
});

const WHEN: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };

/** Promotions and rollbacks, newest first: what, who, how it ended and how long it took. */
export const PromotionHistoryTable = (props: { promotions: Promotion[]; now: Date }) => {
  const classes = useStyles();
  return (
    <Table size="small" aria-label="Promotion history">
      <TableHead>
        <TableRow>
          {['Requested', 'Stages', 'Digests', 'Status', 'Requested by', 'Approved by', 'PR', 'Took'].map(
            heading => (
              <TableCell key={heading} className={classes.nowrap}>
                {heading}
              </TableCell>
            ),
          )}
        </TableRow>
      </TableHead>
      <TableBody>
        {props.promotions.map(promotion => (
          <TableRow key={promotion.id} data-testid={`history-promotion-${promotion.id}`}>
            <TableCell className={classes.nowrap}>
              <time dateTime={promotion.createdAt}>
                {new Date(promotion.createdAt).toLocaleString(undefined, WHEN)}
              </time>
            </TableCell>
            <TableCell className={classes.top}>
              <PromotionRoute promotion={promotion} />
            </TableCell>
            <TableCell className={classes.nowrap}>
              <PromotionDigests promotion={promotion} />
            </TableCell>
            <TableCell className={classes.top}>
              <PromotionStatusChip
                status={promotion.status}
                reason={promotion.statusReason}
                testId={`history-status-${promotion.id}`}
              />
            </TableCell>
            <TableCell className={classes.top}>
              <ActorName actor={promotion.requestedBy} />
            </TableCell>
            <TableCell className={classes.top}>
              {promotion.approvedBy ? <ActorName actor={promotion.approvedBy} /> : '—'}
            </TableCell>
            <TableCell className={classes.nowrap}>
              <PullRequestLink pullRequest={promotion.pullRequest} />
            </TableCell>
            <TableCell className={classes.nowrap}>
              <Typography variant="body2" data-testid={`history-took-${promotion.id}`}>
                {promotionDuration(promotion, props.now)}
              </Typography>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};
