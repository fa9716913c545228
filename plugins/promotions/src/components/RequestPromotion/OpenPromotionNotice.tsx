import { Checkbox, FormControlLabel, Typography } from '@material-ui/core';
import Alert from '@material-ui/lab/Alert';
import { Promotion } from '@refplat/plugin-promotions-common';
import { ActorName } from '../common/ActorName';
import { PROMOTION_STATUS_WORDS } from '../common/PromotionStatusChip';
import { PullRequestLink } from '../common/PullRequestLink';
import { useSectionStyles } from '../common/styles';
import { PromotionDigests } from '../OpenPromotions/PromotionDigests';

/**
 * The promotion already in flight into the target stage. A different request
 * would replace it (its PR is closed), so the user must say so explicitly;
 * the same request only finds it again.
 */
export const OpenPromotionNotice = (props: {
  promotion: Promotion;
  /** True when this request carries other digests and would replace it. */
  replaces: boolean;
  confirmed: boolean;
  onConfirmedChange: (confirmed: boolean) => void;
}) => {
  const classes = useSectionStyles();
  const { promotion } = props;
  const number = promotion.pullRequest.number;
  return (
    <Alert
      severity={props.replaces ? 'warning' : 'info'}
      className={classes.section}
      data-testid="promotion-open-notice"
    >
      <Typography variant="body2">
        A promotion into {promotion.toStage} is already{' '}
        {PROMOTION_STATUS_WORDS[promotion.status].toLocaleLowerCase('en-US')}:{' '}
        <PullRequestLink pullRequest={promotion.pullRequest} queuedAt={promotion.queuedAt} queueOpening={promotion.queueOpening} />, requested by{' '}
        <ActorName actor={promotion.requestedBy} />.
      </Typography>
      <PromotionDigests promotion={promotion} />
      {props.replaces ? (
        <FormControlLabel
          control={
            <Checkbox
              checked={props.confirmed}
              onChange={event => props.onConfirmedChange(event.target.checked)}
              inputProps={{ 'data-testid': 'promotion-replace' } as object}
            />
          }
          label={`Replace it: ${number > 0 ? `#${number}` : 'it'} is closed and this promotion opens instead`}
        />
      ) : (
        <Typography variant="body2">It carries these digests already: submitting finds it.</Typography>
      )}
    </Alert>
  );
};
