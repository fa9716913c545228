import { Button, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@material-ui/core';
import { EntityRefLink } from '@backstage/plugin-catalog-react';
import { ApprovalItem, Promotion, formatProductRef, formatSeconds } from '@refplat/plugin-promotions-common';
import { ActorName } from '../common/ActorName';
import { PromotionRoute } from '../common/PromotionRoute';
import { PullRequestLink } from '../common/PullRequestLink';
import { useCompactTableStyles } from '../common/styles';
import { PromotionDigests } from '../OpenPromotions/PromotionDigests';
import { WhatChangedButton } from '../WhatChanged/WhatChangedButton';
import { ApprovalSourceCell } from './ApprovalSourceCell';
import { useProductSystems } from './useProductSystems';

/** Promotions awaiting approval, oldest first, each with its source stage, Approve and Reject. */
export const ApprovalsTable = (props: {
  promotions: ApprovalItem[];
  now: Date;
  onApprove: (promotion: Promotion) => void;
  onReject: (promotion: Promotion) => void;
}) => {
  const classes = useCompactTableStyles();
  const systems = useProductSystems(props.promotions.map(p => formatProductRef(p)));
  return (
    <Table size="small" aria-label="Promotions awaiting approval" className={classes.table}>
      <TableHead>
        <TableRow>
          {['Product', 'Stages', 'Digests', 'Source', 'Requested by', 'Waiting', 'PR', ''].map(heading => (
            <TableCell key={heading || 'actions'}>{heading}</TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {props.promotions.map(promotion => {
          const product = formatProductRef(promotion);
          const system = systems.get(product);
          const opening = promotion.pullRequest.number <= 0;
          return (
            <TableRow key={promotion.id} data-testid={`approval-${promotion.id}`}>
              {/* May wrap at its dash: a long Product ref must not push the row past a 1280 px page. */}
              <TableCell data-testid={`approval-product-${promotion.id}`}>
                {system ? <EntityRefLink entityRef={system} title={product} /> : product}
              </TableCell>
              <TableCell>
                <PromotionRoute promotion={promotion} />
                {promotion.kind !== 'rollback' && (
                  // The commits between the two stages: what the approver lets into the upper one.
                  <WhatChangedButton product={promotion} fromStage={promotion.fromStage} toStage={promotion.toStage} />
                )}
              </TableCell>
              <TableCell className={classes.nowrap}>
                <PromotionDigests promotion={promotion} testIdPrefix={`approval-change-${promotion.id}-`} />
              </TableCell>
              <TableCell>
                <ApprovalSourceCell item={promotion} />
              </TableCell>
              <TableCell>
                <ActorName actor={promotion.requestedBy} />
              </TableCell>
              <TableCell className={classes.nowrap}>
                <Typography variant="body2" title={promotion.createdAt}>
                  {/* A duration, as the column's heading asks ("1m 5s"), not a time ("1 minute ago"). */}
                  {formatSeconds((props.now.getTime() - Date.parse(promotion.createdAt)) / 1000)}
                </Typography>
                {promotion.awaiting.includes('incident-commander') && (
                  <Typography
                    variant="caption"
                    display="block"
                    color="textSecondary"
                    style={{ whiteSpace: 'normal' }}
                    data-testid={`approval-awaiting-${promotion.id}`}
                  >
                    needs an incident commander
                  </Typography>
                )}
              </TableCell>
              <TableCell className={classes.nowrap}>
                <PullRequestLink pullRequest={promotion.pullRequest} />
              </TableCell>
              <TableCell className={classes.nowrap}>
                <Button
                  size="small"
                  variant="contained"
                  color="primary"
                  disabled={opening}
                  title={opening ? 'Its pull request is still being opened' : undefined}
                  onClick={() => props.onApprove(promotion)}
                  data-testid={`approve-${promotion.id}`}
                >
                  Approve
                </Button>{' '}
                <Button
                  size="small"
                  variant="outlined"
                  disabled={opening}
                  onClick={() => props.onReject(promotion)}
                  data-testid={`reject-${promotion.id}`}
                >
                  Reject
                </Button>
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
};
