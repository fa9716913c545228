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
}));

/**
 * What climbs into this cell from the stage below: "new in dev", then either
 * the promotion already carrying it (its PR and status) or Promote.
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
  const live = livePromotionInto(ladder, stage.name);
  const carried = waiting && live?.services[service] === incoming ? live : undefined;
  const explanation = waiting
    ? [
        `${below.name} runs ${briefDigest(incoming!)}; ${stage.name} has ${
          cell.digest ? briefDigest(cell.digest) : 'none'
        }`,
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
