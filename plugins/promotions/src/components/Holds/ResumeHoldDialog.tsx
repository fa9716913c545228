import { useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Typography,
  makeStyles,
} from '@material-ui/core';
import Alert from '@material-ui/lab/Alert';
import { useApi } from '@backstage/core-plugin-api';
import { Hold, ProductRef } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../../api';
import { errorMessage } from '../common/errorMessage';
import { describeHold } from './HoldChip';

const useStyles = makeStyles(theme => ({
  section: { marginTop: theme.spacing(2) },
}));

/** Confirms lifting a hold, then lifts it. */
export const ResumeHoldDialog = (props: {
  product: ProductRef;
  hold: Hold;
  onResumed: () => void;
  onClose: () => void;
}) => {
  const classes = useStyles();
  const api = useApi(promotionsApiRef);
  const { hold } = props;
  const [resuming, setResuming] = useState(false);
  const [error, setError] = useState<string>();

  const resume = async () => {
    setResuming(true);
    setError(undefined);
    try {
      await api.liftHold(
        { team: props.product.team, product: props.product.product },
        hold.stage,
        hold.service,
      );
      props.onResumed();
      props.onClose();
    } catch (e) {
      setError(errorMessage(e));
      setResuming(false);
    }
  };

  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="sm" data-testid="resume-dialog">
      <DialogTitle>
        Resume {hold.service} in {hold.stage}
      </DialogTitle>
      <DialogContent>
        <Typography>{describeHold(hold)}</Typography>
        <Typography className={classes.section}>
          Once resumed, the auto-promoter and promotions may change {hold.service} in{' '}
          {hold.stage} again.
        </Typography>
        {error && (
          <Alert severity="error" className={classes.section} data-testid="resume-error">
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Cancel</Button>
        <Button
          color="primary"
          variant="contained"
          disabled={resuming}
          onClick={resume}
          data-testid="resume-confirm"
        >
          {resuming ? 'Resuming…' : 'Resume'}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
