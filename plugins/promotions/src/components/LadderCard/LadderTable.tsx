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
import { SERVICE_COLUMN_PX, isCompactLadder, minLadderWidth } from './ladderWidths';
import { ServiceCell } from './ServiceCell';
import { StageHeader } from './StageHeader';
import { useCardWidth } from './useCardWidth';

const useStyles = makeStyles(theme => ({
  // A card too narrow even for the compact ladder scrolls it here, inside
  // the card, instead of cutting off the last stages.
  scroller: { overflowX: 'auto' },
  // Fixed layout: the stages share the card's width equally, so the ladder
  // fits a laptop without scrolling and prod is never the column cut off.
  // A wrapped button label reads as two words ("PROMO / TE"): buttons keep
  // one line, and the ladder goes compact before they would not fit.
  table: { tableLayout: 'fixed', width: '100%', '& button': { whiteSpace: 'nowrap' } },
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
  const [measure, width] = useCardWidth();
  const { ladder, onChanged } = props;
  const compact = isCompactLadder(width, ladder.stages.length);
  if (ladder.services.length === 0) {
    return (
      <Typography>
        No services found in this Product's Release records or Environments.
      </Typography>
    );
  }
  return (
    <div ref={measure} className={classes.scroller}>
      <Table
        size="small"
        aria-label="Promotion ladder"
        className={classes.table}
        style={{ minWidth: minLadderWidth(ladder.stages.length) }}
        data-testid="ladder-table"
        data-compact={compact}
      >
        <TableHead>
          <TableRow>
            <TableCell className={classes.serviceName}>Service</TableCell>
            {ladder.stages.map(stage => (
              <StageHeader
                key={stage.name}
                ladder={ladder}
                stage={stage}
                compact={compact}
                onChanged={onChanged}
              />
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
                  compact={compact}
                  onChanged={onChanged}
                />
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
};
