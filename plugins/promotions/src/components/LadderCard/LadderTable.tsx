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
import { ServiceCell } from './ServiceCell';
import { StageHeader } from './StageHeader';

const SERVICE_COLUMN_PX = 112;

const useStyles = makeStyles(theme => ({
  // Fixed layout: the stages share the card's width equally, so the ladder
  // fits a laptop without scrolling and prod is never the column cut off.
  table: { tableLayout: 'fixed', width: '100%' },
  serviceName: {
    width: SERVICE_COLUMN_PX,
    padding: theme.spacing(1),
    verticalAlign: 'top',
    overflowWrap: 'anywhere',
  },
  serviceLabel: { lineHeight: '30px' },
  highlight: { backgroundColor: theme.palette.action.hover },
}));

export const LadderTable = (props: {
  ladder: Ladder;
  highlightService?: string;
  /** Called once something changed (promotion, rollback, hold), so the ladder can be re-read. */
  onChanged: () => void;
}) => {
  const classes = useStyles();
  const { ladder, onChanged } = props;
  if (ladder.services.length === 0) {
    return (
      <Typography>
        No services found in this Product's Release records or Environments.
      </Typography>
    );
  }
  return (
    <Table size="small" aria-label="Promotion ladder" className={classes.table} data-testid="ladder-table">
      <TableHead>
        <TableRow>
          <TableCell className={classes.serviceName}>Service</TableCell>
          {ladder.stages.map(stage => (
            <StageHeader key={stage.name} ladder={ladder} stage={stage} onChanged={onChanged} />
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {ladder.services.map(service => (
          <TableRow
            key={service}
            className={service === props.highlightService ? classes.highlight : undefined}
            data-testid={`service-row-${service}`}
          >
            <TableCell className={classes.serviceName}>
              <Typography variant="subtitle2" className={classes.serviceLabel}>
                {service}
              </Typography>
            </TableCell>
            {ladder.stages.map((stage, index) => (
              <ServiceCell
                key={stage.name}
                ladder={ladder}
                stage={stage}
                stageBelow={index > 0 ? ladder.stages[index - 1] : undefined}
                service={service}
                onChanged={onChanged}
              />
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};
