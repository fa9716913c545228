import { Typography, makeStyles } from '@material-ui/core';
import { Ladder, LadderStage, differsFromBelow } from '@refplat/plugin-promotions-common';
import { PROMOTION_STATUS_WORDS } from '../common/PromotionStatusChip';
import { PullRequestLink, isQueued } from '../common/PullRequestLink';
import { RequestPromotionButton } from '../RequestPromotion/RequestPromotionButton';
import { carriesExactly, livePromotionInto } from '../RequestPromotion/livePromotion';
import { previewPromotion } from '../RequestPromotion/previewPromotion';

const useStyles = makeStyles(theme => ({
  root: { display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: theme.spacing(0.5), minHeight: 30 },
  muted: { color: theme.palette.text.secondary },
}));

/**
 * What the rung into a stage offers: Promote when the stage below has news;
 * the promotion in flight instead of a second one (replacing it is explicit);
 * or that the stage is in step with the one below.
 */
export const StageRung = (props: {
  ladder: Ladder;
  stage: LadderStage;
  /** Promote as an icon, for a card too narrow for its text. */
  compact?: boolean;
  onChanged: () => void;
}) => {
  const classes = useStyles();
  const { ladder, stage } = props;
  const index = ladder.stages.findIndex(candidate => candidate.name === stage.name);
  if (index <= 0) {
    return (
      <div className={classes.root}>
        <Typography variant="caption" className={classes.muted}>
          CI releases here
        </Typography>
      </div>
    );
  }
  const below = ladder.stages[index - 1];
  const live = livePromotionInto(ladder, stage.name);
  const waiting = ladder.services.some(service => stage.services[service]?.waitingToClimb);
  // An older digest below does not climb, but the stage is not in step with it either.
  const inStep = !ladder.services.some(service => {
    const cell = stage.services[service];
    return cell && differsFromBelow(cell);
  });
  const next = previewPromotion(ladder, stage.name).changes;
  const replaceable =
    !!live &&
    next.length > 0 &&
    !carriesExactly(live, Object.fromEntries(next.map(c => [c.service, c.next])));
  return (
    <div className={classes.root} data-testid={live ? `live-promotion-${stage.name}` : undefined}>
      {live && (
        <Typography variant="caption">
          <PullRequestLink pullRequest={live.pullRequest} queuedAt={live.queuedAt} queueOpening={live.queueOpening} />{' '}
          {/* Waiting in the write queue, it has no PR to be Open yet: not "queued Open". */}
          {isQueued(live) ? 'for its pull request' : PROMOTION_STATUS_WORDS[live.status]}
        </Typography>
      )}
      {!live && inStep && (
        <Typography variant="caption" className={classes.muted} data-testid={`in-step-${stage.name}`}>
          In step with {below.name}
        </Typography>
      )}
      {/* Mounted in every case, so a dialog opened here outlives the refresh that follows it. */}
      <RequestPromotionButton
        ladder={ladder}
        stage={stage}
        label={live ? 'Replace…' : undefined}
        compact={props.compact}
        offered={live ? replaceable : waiting}
        onRequested={props.onChanged}
      />
    </div>
  );
};
