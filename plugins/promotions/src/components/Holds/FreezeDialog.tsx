import { useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  TextField,
  Typography,
  makeStyles,
} from '@material-ui/core';
import Alert from '@material-ui/lab/Alert';
import { useApi } from '@backstage/core-plugin-api';
import { ProductRef } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../../api';
import { errorMessage } from '../common/errorMessage';

const useStyles = makeStyles(theme => ({
  section: { marginTop: theme.spacing(2) },
}));

/** Asks why a service is frozen in a stage (people read it on the ladder), then holds it. */
export const FreezeDialog = (props: {
  product: ProductRef;
  stage: string;
  service: string;
  onFrozen: () => void;
  onClose: () => void;
}) => {
  const classes = useStyles();
  const api = useApi(promotionsApiRef);
  const { stage, service } = props;
  const [reason, setReason] = useState('');
  const [freezing, setFreezing] = useState(false);
  const [error, setError] = useState<string>();

  const freeze = async () => {
    setFreezing(true);
    setError(undefined);
    try {
      await api.placeHold(
        { team: props.product.team, product: props.product.product },
        { stage, service, reason: reason.trim() },
      );
      props.onFrozen();
      props.onClose();
    } catch (e) {
      setError(errorMessage(e));
      setFreezing(false);
    }
  };

  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="sm" data-testid="freeze-dialog">
      <DialogTitle>
        Freeze {service} in {stage}
      </DialogTitle>
      <DialogContent>
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
          inputProps={{ 'data-testid': 'freeze-reason', maxLength: 500 }}
        />
        {error && (
          <Alert severity="error" className={classes.section} data-testid="freeze-error">
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Cancel</Button>
        <Button
          color="primary"
          variant="contained"
          disabled={freezing || !reason.trim()}
          onClick={freeze}
          data-testid="freeze-confirm"
        >
          {freezing ? 'Freezing…' : 'Freeze'}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
