import { TableCell, Tooltip, Typography, makeStyles } from '@material-ui/core';
import ArrowUpwardIcon from '@material-ui/icons/ArrowUpward';
import { Ladder, LadderStage } from '@refplat/plugin-promotions-common';
import { CanaryProgress } from '../common/CanaryProgress';
import { DigestLabel } from '../common/DigestLabel';
import { HealthChip } from '../common/HealthChip';
import { DiagnosisButton } from '../Diagnosis/DiagnosisButton';
import { CellHold } from '../Holds/CellHold';
import { RequestPromotionButton } from '../RequestPromotion/RequestPromotionButton';
import { AutoDecisionIcon } from './AutoDecisionIcon';
import { SoakCountdown } from './SoakCountdown';

const useStyles = makeStyles(theme => ({
  cell: { verticalAlign: 'top', minWidth: 170 },
  digestLine: { display: 'flex', alignItems: 'center', justifyContent: 'space-between' },
  actions: { display: 'inline-flex', alignItems: 'center' },
  chips: { display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: theme.spacing(0.5) },
  waiting: {
    display: 'flex',
    alignItems: 'center',
    color: theme.palette.warning.dark,
  },
  muted: { color: theme.palette.text.secondary, fontStyle: 'italic' },
}));

/**
 * One service at one stage: digest, health, its diagnosis when not ok, hold,
 * soak, canary, and its own promotion.
 */
export const ServiceCell = (props: {
  ladder: Ladder;
  stage: LadderStage;
  stageBelow?: LadderStage;
  service: string;
  /** Called once something changed (a promotion requested, a hold placed or lifted). */
  onChanged: () => void;
}) => {
  const classes = useStyles();
  const cell = props.stage.services[props.service];
  const key = `${props.stage.name}-${props.service}`;
  const testId = `cell-${key}`;
  const requestButton = (
    <RequestPromotionButton
      ladder={props.ladder}
      stage={props.stage}
      service={props.service}
      onRequested={props.onChanged}
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
        <span className={classes.actions}>
          <DiagnosisButton stage={props.stage.name} service={props.service} cell={cell} />
          {cell.autoPromotion && (
            <AutoDecisionIcon autoPromotion={cell.autoPromotion} testId={`auto-${key}`} />
          )}
          {requestButton}
        </span>
      </div>
      <div className={classes.chips}>
        <HealthChip verdict={cell.verdict} reasons={cell.reasons} />
        <CellHold
          product={props.ladder}
          stage={props.stage.name}
          service={props.service}
          hold={cell.hold}
          onChanged={props.onChanged}
        />
      </div>
      <CanaryProgress canary={cell.canary} />
      {(cell.soakRemainingSeconds ?? 0) > 0 && (
        <SoakCountdown
          seconds={cell.soakRemainingSeconds!}
          stage={props.stage.name}
          testId={`soak-${key}`}
        />
      )}
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
