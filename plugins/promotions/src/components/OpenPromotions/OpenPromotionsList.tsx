import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  makeStyles,
} from '@material-ui/core';
import { Ladder } from '@refplat/plugin-promotions-common';
import { useCompactTableStyles } from '../common/styles';
import { OpenPromotionRow } from './OpenPromotionRow';

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
 */
export const OpenPromotionsList = (props: {
  ladder: Ladder;
  onChanged: () => void;
}) => {
  const classes = useStyles();
  const table = useCompactTableStyles();
  const { ladder } = props;
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
                onChanged={props.onChanged}
              />
            ))}
          </TableBody>
        </Table>
      )}
    </div>
  );
};
