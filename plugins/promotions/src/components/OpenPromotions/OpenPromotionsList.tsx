import { useState } from 'react';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  makeStyles,
} from '@material-ui/core';
import { Ladder, Promotion } from '@refplat/plugin-promotions-common';
import { useCompactTableStyles } from '../common/styles';
import { ApprovePromotionDialog } from './ApprovePromotionDialog';
import { ClosePromotionDialog } from './ClosePromotionDialog';
import { OpenPromotionRow, PromotionAction } from './OpenPromotionRow';

const useStyles = makeStyles(theme => ({
  root: { marginTop: theme.spacing(3), overflowX: 'auto' },
  visuallyHidden: {
    position: 'absolute',
    width: 1,
    height: 1,
    overflow: 'hidden',
    clip: 'rect(0 0 0 0)',
    whiteSpace: 'nowrap',
  },
}));

/**
 * The Product's promotions in flight, below the ladder (the Promotions tab
 * has them all). Four columns whose contents wrap, so that the Approve
 * action stays inside a create-app Overview's 629 px card at 1280 px.
 *
 * The list, not the row, holds the Approve and Withdraw dialogs: an approval
 * can let the Gate merge, and a withdrawal closes the PR, before the answer
 * reaches the dialog; the ladder refreshed on that signal drops the row, and
 * a dialog in the row would go with it, its outcome never shown.
 */
export const OpenPromotionsList = (props: {
  ladder: Ladder;
  onChanged: () => void;
}) => {
  const classes = useStyles();
  const table = useCompactTableStyles();
  const { ladder } = props;
  const [acting, setActing] = useState<{ action: PromotionAction; promotion: Promotion }>();
  const closeDialog = () => setActing(undefined);
  // Tolerates a backend that does not list promotions yet.
  const promotions = ladder.promotions ?? [];
  return (
    <div className={classes.root} data-testid="open-promotions">
      <Typography variant="h6">In flight</Typography>
      {promotions.length === 0 ? (
        <Typography variant="body2" color="textSecondary">
          No promotions in flight.
        </Typography>
      ) : (
        <Table
          size="small"
          aria-label="Promotions in flight"
          className={table.table}
        >
          <TableHead>
            <TableRow>
              <TableCell>Promotion</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>People</TableCell>
              <TableCell>
                <span className={classes.visuallyHidden}>Action</span>
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {promotions.map(promotion => (
              <OpenPromotionRow
                key={promotion.id}
                ladder={ladder}
                promotion={promotion}
                onAct={action => setActing({ action, promotion })}
              />
            ))}
          </TableBody>
        </Table>
      )}
      {acting?.action === 'approve' && (
        <ApprovePromotionDialog promotion={acting.promotion} onApproved={props.onChanged} onClose={closeDialog} />
      )}
      {acting?.action === 'withdraw' && (
        <ClosePromotionDialog
          closing="withdraw"
          promotion={acting.promotion}
          onClosed={props.onChanged}
          onClose={closeDialog}
        />
      )}
    </div>
  );
};
