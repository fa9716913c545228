import { Button, Typography, makeStyles } from '@material-ui/core';
import { ProductRef, Promotion } from '@refplat/plugin-promotions-common';
import { useApproveAccess } from '../../access/useChangeAccess';
import { ReasonTooltip } from '../common/ReasonTooltip';

const useStyles = makeStyles(theme => ({
  root: { display: 'flex', alignItems: 'center', gap: theme.spacing(1), flexWrap: 'wrap' },
}));

/**
 * For a promotion awaiting approval: Approve for release-approvers; disabled,
 * saying why, for the one who requested it or already approved its head
 * (another approver must); for everyone else, who it waits for.
 */
export const ApprovalAction = (props: {
  product: ProductRef;
  promotion: Promotion;
  /** The incident commanders, while an open incident asks for one's approval too. */
  commanders?: string[];
  /** Opens the approve dialog, which the list holds: it outlives this row (see OpenPromotionsList). */
  onApprove: () => void;
}) => {
  const classes = useStyles();
  const { promotion } = props;
  const access = useApproveAccess(props.product, promotion, props.commanders);
  const awaiting = promotion.status === 'awaiting-approval';
  const opening = promotion.pullRequest.number <= 0;
  // Disabled, the button keeps its place and says why on hover and focus as well as beside it.
  const why = opening ? 'Its pull request is still being opened' : access.reason;
  const button = (
    <Button
      size="small"
      variant="contained"
      color="primary"
      disabled={Boolean(why)}
      onClick={props.onApprove}
      data-testid={`approve-${promotion.id}`}
    >
      Approve
    </Button>
  );
  let action = null;
  if (awaiting && (access.allowed || access.ownPart)) {
    action = (
      <div className={classes.root}>
        {why ? (
          <ReasonTooltip reason={why} testId={`approve-reason-${promotion.id}`}>
            {button}
          </ReasonTooltip>
        ) : (
          button
        )}
        {why && (
          <Typography variant="caption" color="textSecondary" data-testid={`approve-why-${promotion.id}`}>
            {why}
          </Typography>
        )}
      </div>
    );
  } else if (awaiting && !access.loading) {
    action = (
      <Typography variant="body2" color="textSecondary">
        {access.reason}
      </Typography>
    );
  }
  return action;
};
