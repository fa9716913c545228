import { Typography, makeStyles } from '@material-ui/core';
import Alert from '@material-ui/lab/Alert';
import { ProductRef, PromotionResponse } from '@refplat/plugin-promotions-common';
import { usePolledPromotion } from '../../hooks/usePolledPromotion';
import { PromotionStatusChip } from '../common/PromotionStatusChip';
import { PullRequestLink } from '../common/PullRequestLink';
import { PromotionDigests } from '../OpenPromotions/PromotionDigests';

const useStyles = makeStyles(theme => ({
  line: { marginTop: theme.spacing(1) },
}));

/** The promotion a request produced: its PR, and its status as it moves on. */
export const RequestedPromotion = (props: {
  product: ProductRef;
  response: PromotionResponse;
}) => {
  const classes = useStyles();
  const promotion =
    usePolledPromotion(props.product, props.response.promotion) ?? props.response.promotion;
  return (
    <>
      <Alert severity="success" data-testid="promotion-result">
        {props.response.existing
          ? 'This promotion was already open; no second pull request was opened: '
          : 'Requested: Release pull request '}
        <PullRequestLink pullRequest={promotion.pullRequest} testId="promotion-pr-link" />
      </Alert>
      <Typography className={classes.line} component="div">
        {promotion.fromStage} → {promotion.toStage}:{' '}
        <PromotionStatusChip
          status={promotion.status}
          reason={promotion.statusReason}
          testId="promotion-status"
        />
      </Typography>
      {promotion.statusReason && (
        <Typography variant="body2" color="textSecondary">
          {promotion.statusReason}
        </Typography>
      )}
      <div className={classes.line}>
        <PromotionDigests promotion={promotion} />
      </div>
    </>
  );
};
