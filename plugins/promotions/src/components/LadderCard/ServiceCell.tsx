import { TableCell, Tooltip, Typography, makeStyles } from '@material-ui/core';
import ArrowUpwardIcon from '@material-ui/icons/ArrowUpward';
import { Ladder, LadderStage } from '@refplat/plugin-promotions-common';
import { CanaryProgress } from '../common/CanaryProgress';
import { DigestLabel } from '../common/DigestLabel';
import { HealthChip } from '../common/HealthChip';
import { RequestPromotionButton } from '../RequestPromotion/RequestPromotionButton';

const useStyles = makeStyles(theme => ({
  cell: { verticalAlign: 'top', minWidth: 170 },
  digestLine: { display: 'flex', alignItems: 'center', justifyContent: 'space-between' },
  waiting: {
    display: 'flex',
    alignItems: 'center',
    color: theme.palette.warning.dark,
  },
  muted: { color: theme.palette.text.secondary, fontStyle: 'italic' },
}));

/** One service at one stage: digest, health, canary, and its own promotion. */
export const ServiceCell = (props: {
  ladder: Ladder;
  stage: LadderStage;
  stageBelow?: LadderStage;
  service: string;
  onPromotionRequested: () => void;
}) => {
  const classes = useStyles();
  const cell = props.stage.services[props.service];
  const testId = `cell-${props.stage.name}-${props.service}`;
  const requestButton = (
    <RequestPromotionButton
      ladder={props.ladder}
      stage={props.stage}
      service={props.service}
      onRequested={props.onPromotionRequested}
    />
  );
  if (!cell || (!cell.declared && !cell.digest)) {
    return (
      <TableCell className={classes.cell} data-testid={testId}>
        <div className={classes.digestLine}>
          <Typography variant="body2" className={classes.muted}>
            not declared in {props.stage.name}
          </Typography>
          {requestButton}
        </div>
      </TableCell>
    );
  }
  return (
    <TableCell className={classes.cell} data-testid={testId}>
      <div className={classes.digestLine}>
        {cell.digest ? (
          <DigestLabel digest={cell.digest} />
        ) : (
          <Typography variant="body2" className={classes.muted}>
            not released
          </Typography>
        )}
        {requestButton}
      </div>
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
