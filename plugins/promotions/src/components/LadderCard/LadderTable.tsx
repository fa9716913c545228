import {
  Chip,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
  makeStyles,
} from '@material-ui/core';
import ArrowUpwardIcon from '@material-ui/icons/ArrowUpward';
import { Ladder, LadderStage } from '@refplat/plugin-promotions-common';
import { CanaryProgress } from '../common/CanaryProgress';
import { DigestLabel } from '../common/DigestLabel';
import { HealthChip } from '../common/HealthChip';

const useStyles = makeStyles(theme => ({
  table: { overflowX: 'auto' },
  cell: { verticalAlign: 'top', minWidth: 170 },
  stageHead: { whiteSpace: 'nowrap' },
  highlight: { backgroundColor: theme.palette.action.hover },
  waiting: {
    display: 'flex',
    alignItems: 'center',
    color: theme.palette.warning.dark,
  },
  muted: { color: theme.palette.text.secondary, fontStyle: 'italic' },
}));

const StageHeader = ({ stage }: { stage: LadderStage }) => {
  const classes = useStyles();
  return (
    <TableCell className={classes.stageHead} data-testid={`stage-${stage.name}`}>
      <Typography variant="subtitle2">{stage.name}</Typography>
      <HealthChip verdict={stage.verdict} reasons={stage.reasons} />{' '}
      {stage.requiresApproval && (
        <Tooltip title="Promotions into this stage need a release-approver">
          <Chip size="small" variant="outlined" label="approval" />
        </Tooltip>
      )}
      {(stage.release.error || stage.environment.error) && (
        <Typography variant="caption" color="error" display="block">
          {stage.release.error ?? stage.environment.error}
        </Typography>
      )}
    </TableCell>
  );
};

const ServiceCell = (props: {
  stage: LadderStage;
  stageBelow?: LadderStage;
  service: string;
}) => {
  const classes = useStyles();
  const cell = props.stage.services[props.service];
  const testId = `cell-${props.stage.name}-${props.service}`;
  if (!cell || (!cell.declared && !cell.digest)) {
    return (
      <TableCell className={classes.cell} data-testid={testId}>
        <Typography variant="body2" className={classes.muted}>
          not declared in {props.stage.name}
        </Typography>
      </TableCell>
    );
  }
  return (
    <TableCell className={classes.cell} data-testid={testId}>
      {cell.digest ? (
        <DigestLabel digest={cell.digest} />
      ) : (
        <Typography variant="body2" className={classes.muted}>
          not released
        </Typography>
      )}
      <div>
        <HealthChip verdict={cell.verdict} reasons={cell.reasons} />
      </div>
      <CanaryProgress canary={cell.canary} />
      {cell.waitingToClimb && props.stageBelow && (
        <Tooltip
          title={`${props.stageBelow.name} runs a different digest: it is waiting to climb into ${props.stage.name}`}
        >
          <Typography variant="caption" className={classes.waiting} data-testid="waiting-to-climb">
            <ArrowUpwardIcon fontSize="inherit" /> new digest in {props.stageBelow.name}
          </Typography>
        </Tooltip>
      )}
    </TableCell>
  );
};

export const LadderTable = (props: {
  ladder: Ladder;
  highlightService?: string;
}) => {
  const classes = useStyles();
  const { ladder } = props;
  if (ladder.services.length === 0) {
    return (
      <Typography>
        No services found in this Product's Release records or Environments.
      </Typography>
    );
  }
  return (
    <div className={classes.table}>
      <Table size="small" aria-label="Promotion ladder">
        <TableHead>
          <TableRow>
            <TableCell>Service</TableCell>
            {ladder.stages.map(stage => (
              <StageHeader key={stage.name} stage={stage} />
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
              <TableCell>
                <Typography variant="subtitle2">{service}</Typography>
              </TableCell>
              {ladder.stages.map((stage, index) => (
                <ServiceCell
                  key={stage.name}
                  stage={stage}
                  stageBelow={index > 0 ? ladder.stages[index - 1] : undefined}
                  service={service}
                />
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
};
