import { useState } from 'react';
import { TextField, Typography } from '@material-ui/core';
import { useApi } from '@backstage/core-plugin-api';
import { MAX_HOLD_REASON_CHARS, ProductRef } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../../api';
import { useSubmitAction } from '../../hooks/useSubmitAction';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { useSectionStyles } from '../common/styles';

/** Asks why a service is frozen in a stage (people read it on the ladder), then holds it. */
export const FreezeDialog = (props: {
  product: ProductRef;
  stage: string;
  service: string;
  onFrozen: () => void;
  onClose: () => void;
}) => {
  const classes = useSectionStyles();
  const api = useApi(promotionsApiRef);
  const { stage, service } = props;
  const [reason, setReason] = useState('');
  const freeze = useSubmitAction(
    async () => {
      await api.placeHold(
        { team: props.product.team, product: props.product.product },
        { stage, service, reason: reason.trim() },
      );
    },
    () => {
      props.onFrozen();
      props.onClose();
    },
  );

  return (
    <ConfirmDialog
      testIdPrefix="freeze"
      title={
        <>
          Freeze {service} in {stage}
        </>
      }
      confirmLabel="Freeze"
      busyLabel="Freezing…"
      busy={freeze.busy}
      error={freeze.error}
      confirmDisabled={!reason.trim()}
      onConfirm={freeze.submit}
      onClose={props.onClose}
    >
      <Typography>
        The auto-promoter and promotions leave {service} in {stage} alone until someone
        resumes it.
      </Typography>
      <TextField
        className={classes.section}
        label="Reason"
        helperText="Shown on the ladder to everyone"
        required
        fullWidth
        value={reason}
        onChange={event => setReason(event.target.value)}
        inputProps={{ 'data-testid': 'freeze-reason', maxLength: MAX_HOLD_REASON_CHARS }}
      />
    </ConfirmDialog>
  );
};
