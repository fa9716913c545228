import { TableCell, Typography, makeStyles } from '@material-ui/core';
import ArrowForwardIcon from '@material-ui/icons/ArrowForward';
import { Ladder, LadderStage } from '@refplat/plugin-promotions-common';
import { CanaryProgress } from '../common/CanaryProgress';
import { DigestLabel } from '../common/DigestLabel';
import { CellHealth } from '../Diagnosis/CellHealth';
import { HoldChip } from '../Holds/HoldChip';
import { HoldNotice } from '../Holds/HoldNotice';
import { ProvenanceNote } from '../Provenance/ProvenanceNote';
import { ArrivalNote } from './ArrivalNote';
import { CellActions } from './CellActions';
import { IncomingDigest } from './IncomingDigest';
import { SoakCountdown } from './SoakCountdown';

const useStyles = makeStyles(theme => ({
  cell: {
    verticalAlign: 'top',
    position: 'relative',
    padding: theme.spacing(1, 1, 1, 1.5),
    // Backstage's theme hides a cell's overflow (the flow arrow sits on the
    // border) and breaks words anywhere; long names still wrap.
    overflow: 'visible',
    wordBreak: 'normal',
    overflowWrap: 'anywhere',
  },
  digestLine: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    minHeight: 30,
  },
  chips: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: theme.spacing(0.5),
  },
  muted: { color: theme.palette.text.secondary, fontStyle: 'italic' },
  // Sits on the border with the stage below: the digest climbing is something you see.
  flow: {
    position: 'absolute',
    left: -9,
    top: 14,
    width: 18,
    height: 18,
    borderRadius: '50%',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    backgroundColor: theme.palette.warning.main,
    color: theme.palette.common.white,
    zIndex: 1,
  },
}));

/**
 * One service at one stage: its digest and health, what holds or soaks it,
 * where its canary stands, and what climbs into it from the stage below.
 */
export const ServiceCell = (props: {
  ladder: Ladder;
  stage: LadderStage;
  stageBelow?: LadderStage;
  service: string;
  /** Promote as an icon, for a card too narrow for its text. */
  compact?: boolean;
  /** Called once something changed (a promotion requested, a hold placed or lifted). */
  onChanged: () => void;
}) => {
  const classes = useStyles();
  const { ladder, stage, stageBelow, service } = props;
  const cell = stage.services[service];
  const key = `${stage.name}-${service}`;
  if (!cell || (!cell.declared && !cell.digest)) {
    return (
      <TableCell className={classes.cell} data-testid={`cell-${key}`}>
        <Typography variant="body2" className={classes.muted}>
          not declared in {stage.name}
        </Typography>
      </TableCell>
    );
  }
  const waiting = cell.waitingToClimb && !!stageBelow;
  return (
    <TableCell className={classes.cell} data-testid={`cell-${key}`}>
      {waiting && (
        <span className={classes.flow} aria-hidden data-testid={`flow-${key}`}>
          <ArrowForwardIcon style={{ fontSize: 14 }} />
        </span>
      )}
      <div className={classes.digestLine}>
        {cell.digest ? (
          <DigestLabel digest={cell.digest} />
        ) : (
          <Typography variant="body2" className={classes.muted}>
            not released
          </Typography>
        )}
        <CellActions
          product={ladder}
          stage={stage.name}
          service={service}
          cell={cell}
          freezable={!!stageBelow && cell.declared}
          onChanged={props.onChanged}
        />
      </div>
      <div className={classes.chips}>
        <CellHealth product={ladder} stage={stage.name} service={service} cell={cell} />
        {cell.hold && <HoldChip testId={`hold-${key}`} />}
      </div>
      {cell.hold && (
        <HoldNotice
          product={ladder}
          hold={cell.hold}
          atApprovalStage={stage.requiresApproval}
          onChanged={props.onChanged}
        />
      )}
      {cell.provenance && <ProvenanceNote provenance={cell.provenance} testId={`provenance-${key}`} />}
      {cell.arrivedWith && <ArrivalNote arrival={cell.arrivedWith} testId={`arrived-${key}`} />}
      <CanaryProgress canary={cell.canary} />
      {(cell.soakRemainingSeconds ?? 0) > 0 && (
        <SoakCountdown
          seconds={cell.soakRemainingSeconds!}
          stage={stage.name}
          testId={`soak-${key}`}
        />
      )}
      {stageBelow && (
        <IncomingDigest
          ladder={ladder}
          stage={stage}
          below={stageBelow}
          service={service}
          compact={props.compact}
          onChanged={props.onChanged}
        />
      )}
    </TableCell>
  );
};
