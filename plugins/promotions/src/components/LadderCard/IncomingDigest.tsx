import { Tooltip, Typography, makeStyles } from '@material-ui/core';
import { Ladder, LadderStage } from '@refplat/plugin-promotions-common';
import { briefDigest } from '../common/briefDigest';
import { PROMOTION_STATUS_WORDS } from '../common/PromotionStatusChip';
import { PullRequestLink } from '../common/PullRequestLink';
import { RequestPromotionButton } from '../RequestPromotion/RequestPromotionButton';
import { livePromotionInto } from '../RequestPromotion/livePromotion';
import { describeAutoPromotion } from './autoDecision';

const useStyles = makeStyles(theme => ({
  root: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    columnGap: theme.spacing(1),
    marginTop: theme.spacing(0.5),
  },
  waiting: { color: theme.palette.warning.dark, fontWeight: 500, whiteSpace: 'nowrap' },
  older: { color: theme.palette.text.secondary, whiteSpace: 'nowrap' },
}));

/** A digest below that is older than this stage's does not climb; say so, and who may move it. */
const OlderBelow = (props: { stage: LadderStage; below: LadderStage; service: string; reason: string }) => {
  const classes = useStyles();
  const { stage, below } = props;
  const auto = stage.services[props.service]?.autoPromotion;
  const explanation = [
    `${props.reason}. Moving it up would be a downgrade: the auto-promoter never makes one; only a person rolls ${stage.name} back, from its History.`,
    ...(auto ? [describeAutoPromotion(auto)] : []),
  ].join(' ');
  return (
    <Tooltip title={explanation}>
      <Typography
        variant="caption"
        component="div"
        className={classes.older}
        data-testid={`older-below-${stage.name}-${props.service}`}
      >
        older in {below.name}
      </Typography>
    </Tooltip>
  );
};

/**
 * What climbs into this cell from the stage below: "new in dev", then either
 * the promotion already carrying it (its PR and status) or Promote; or
 * "older in dev" when the stage below went back to an older digest.
 */
export const IncomingDigest = (props: {
  ladder: Ladder;
  stage: LadderStage;
  below: LadderStage;
  service: string;
  /** Promote as an icon, for a card too narrow for its text. */
  compact?: boolean;
  onChanged: () => void;
}) => {
  const classes = useStyles();
  const { ladder, stage, below, service } = props;
  const cell = stage.services[service];
  const incoming = below.services[service]?.digest;
  const waiting = !!cell?.waitingToClimb && !!incoming;
  if (cell?.incomingAge?.age === 'older' && incoming) {
    return <OlderBelow stage={stage} below={below} service={service} reason={cell.incomingAge.reason} />;
  }
  const live = livePromotionInto(ladder, stage.name);
  const carried = waiting && live?.services[service] === incoming ? live : undefined;
  const explanation = waiting
    ? [
        `${below.name} runs ${briefDigest(incoming!)}${
          cell.incomingAge?.age === 'newer' ? ', a newer build' : ''
        }; ${stage.name} has ${cell.digest ? briefDigest(cell.digest) : 'none'}`,
        ...(cell.autoPromotion ? [describeAutoPromotion(cell.autoPromotion)] : []),
      ].join('. ')
    : '';
  // One shape whatever climbs, so a dialog opened here stays open when the
  // promotion it requested lands and nothing waits any more.
  return (
    <div
      className={waiting ? classes.root : undefined}
      data-testid={waiting ? `incoming-${stage.name}-${service}` : undefined}
    >
      {waiting && (
        <Tooltip title={explanation}>
          <Typography variant="caption" className={classes.waiting} data-testid="waiting-to-climb">
            new in {below.name}
          </Typography>
        </Tooltip>
      )}
      {carried && (
        <Typography variant="caption" data-testid={`in-flight-${stage.name}-${service}`}>
          <PullRequestLink pullRequest={carried.pullRequest} />{' '}
          {PROMOTION_STATUS_WORDS[carried.status]}
        </Typography>
      )}
      <RequestPromotionButton
        ladder={ladder}
        stage={stage}
        service={service}
        offered={waiting && !carried}
        compact={props.compact}
        onRequested={props.onChanged}
      />
    </div>
  );
};
