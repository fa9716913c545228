import { Typography } from '@material-ui/core';
import { useApi } from '@backstage/core-plugin-api';
import { Hold, ProductRef } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../../api';
import { useSubmitAction } from '../../hooks/useSubmitAction';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { useSectionStyles } from '../common/styles';
import { ActorName } from '../common/ActorName';

/** Confirms lifting a hold, then lifts it. */
export const ResumeHoldDialog = (props: {
  product: ProductRef;
  hold: Hold;
  onResumed: () => void;
  onClose: () => void;
}) => {
  const classes = useSectionStyles();
  const api = useApi(promotionsApiRef);
  const { hold } = props;
  const resume = useSubmitAction(
    async () => {
      await api.liftHold(
        { team: props.product.team, product: props.product.product },
        hold.stage,
        hold.service,
      );
    },
    () => {
      props.onResumed();
      props.onClose();
    },
  );

  return (
    <ConfirmDialog
      testIdPrefix="resume"
      title={
        <>
          Resume {hold.service} in {hold.stage}
        </>
      }
      confirmLabel="Resume"
      busyLabel="Resuming…"
      busy={resume.busy}
      error={resume.error}
      onConfirm={resume.submit}
      onClose={props.onClose}
    >
      <Typography>
        {hold.reason} (held by <ActorName actor={hold.placedBy} /> since{' '}
        {new Date(hold.placedAt).toLocaleString()})
      </Typography>
      <Typography className={classes.section}>
        Once resumed, the auto-promoter and promotions may change {hold.service} in{' '}
        {hold.stage} again.
      </Typography>
    </ConfirmDialog>
  );
};
