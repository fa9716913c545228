import { useMemo, useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  makeStyles,
} from '@material-ui/core';
import Alert from '@material-ui/lab/Alert';
import { useApi } from '@backstage/core-plugin-api';
import { Ladder, PromotionResponse } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../../api';
import { errorMessage } from '../common/errorMessage';
import { PlannedChanges } from './PlannedChanges';
import { RequestedPromotion } from './RequestedPromotion';
import { previewPromotion } from './previewPromotion';

const useStyles = makeStyles(theme => ({
  error: { marginTop: theme.spacing(2) },
}));

/** Shows what a promotion would change, requests it, then follows it. */
export const RequestPromotionDialog = (props: {
  ladder: Ladder;
  toStage: string;
  service?: string;
  onRequested: () => void;
  onClose: () => void;
}) => {
  const { ladder, toStage, service, onRequested } = props;
  const classes = useStyles();
  const api = useApi(promotionsApiRef);
  const product = useMemo(
    () => ({ team: ladder.team, product: ladder.product }),
    [ladder.team, ladder.product],
  );
  const preview = useMemo(
    () => previewPromotion(ladder, toStage, service),
    [ladder, toStage, service],
  );
  const [submitting, setSubmitting] = useState(false);
  const [response, setResponse] = useState<PromotionResponse>();
  const [error, setError] = useState<string>();

  const submit = async () => {
    setSubmitting(true);
    setError(undefined);
    try {
      // Name the services shown, so the PR carries exactly what the user
      // saw; with none shown, let the backend pick and explain.
      const services = preview.changes.length
        ? preview.changes.map(change => change.service)
        : undefined;
      setResponse(await api.requestPromotion(product, { toStage, services }));
      onRequested();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="md" data-testid="promotion-dialog">
      <DialogTitle>
        Request promotion into {toStage}
        {service ? ` of ${service}` : ''}
      </DialogTitle>
      <DialogContent>
        {response ? (
          <RequestedPromotion product={product} response={response} />
        ) : (
          <PlannedChanges preview={preview} approvers={ladder.approvers ?? []} />
        )}
        {error && (
          <Alert severity="error" className={classes.error} data-testid="promotion-error">
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{response ? 'Close' : 'Cancel'}</Button>
        {!response && (
          <Button
            color="primary"
            variant="contained"
            disabled={submitting}
            onClick={submit}
            data-testid="promotion-submit"
          >
            {submitting ? 'Requesting…' : 'Submit'}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
};
