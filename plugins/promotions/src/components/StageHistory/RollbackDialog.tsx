import { useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  makeStyles,
} from '@material-ui/core';
import Alert from '@material-ui/lab/Alert';
import { useApi } from '@backstage/core-plugin-api';
import {
  LadderStage,
  ProductRef,
  PromotionResponse,
  StageHistoryEntry,
} from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../../api';
import { DigestChange } from '../common/DigestChange';
import { errorMessage } from '../common/errorMessage';
import { PromotionStatusChip } from '../common/PromotionStatusChip';
import { PullRequestLink } from '../common/PullRequestLink';
import { RollbackChange } from './rollbackChanges';

const useStyles = makeStyles(theme => ({
  section: { marginTop: theme.spacing(2) },
}));

function whatHappensNext(stage: LadderStage, services: string[]): string {
  const merge = stage.requiresApproval
    ? 'Needs a release-approver before it merges.'
    : 'Merges without waiting for another stage.';
  return `${merge} The auto-promoter will hold ${services.join(', ')} in ${
    stage.name
  } until someone resumes it.`;
}

/** Confirms writing a history entry's digests back into its stage, then opens the rollback PR. */
export const RollbackDialog = (props: {
  product: ProductRef;
  stage: LadderStage;
  entry: StageHistoryEntry;
  changes: RollbackChange[];
  onRolledBack: () => void;
  onClose: () => void;
}) => {
  const classes = useStyles();
  const api = useApi(promotionsApiRef);
  const { stage, entry } = props;
  // What the user confirmed, even if a ladder refresh changes the stage meanwhile.
  const [changes] = useState(props.changes);
  const [submitting, setSubmitting] = useState(false);
  const [response, setResponse] = useState<PromotionResponse>();
  const [error, setError] = useState<string>();

  const submit = async () => {
    setSubmitting(true);
    setError(undefined);
    try {
      setResponse(
        await api.requestRollback(
          { team: props.product.team, product: props.product.product },
          {
            stage: stage.name,
            services: Object.fromEntries(changes.map(c => [c.service, c.target])),
          },
        ),
      );
      props.onRolledBack();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="md" data-testid="rollback-dialog">
      <DialogTitle>
        Roll back {stage.name} to {entry.revision.slice(0, 7)}
      </DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="textSecondary">
          {entry.message} ({entry.author}, {new Date(entry.date).toLocaleString()})
        </Typography>
        <Table size="small" className={classes.section} aria-label="Digests rolled back">
          <TableHead>
            <TableRow>
              <TableCell>Service</TableCell>
              <TableCell>{stage.name} now → after the rollback</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {changes.map(change => (
              <TableRow key={change.service} data-testid={`rollback-change-${change.service}`}>
                <TableCell>{change.service}</TableCell>
                <TableCell>
                  <DigestChange from={change.current} to={change.target} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {response ? (
          <Alert severity="success" className={classes.section} data-testid="rollback-result">
            {response.existing
              ? 'This rollback was already open; no second pull request was opened: '
              : 'Opened the rollback pull request '}
            <PullRequestLink pullRequest={response.promotion.pullRequest} testId="rollback-pr-link" />{' '}
            <PromotionStatusChip
              status={response.promotion.status}
              reason={response.promotion.statusReason}
            />
          </Alert>
        ) : (
          <Alert severity="info" className={classes.section} data-testid="rollback-next-step">
            {whatHappensNext(stage, changes.map(c => c.service))}
          </Alert>
        )}
        {error && (
          <Alert severity="error" className={classes.section} data-testid="rollback-error">
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
            data-testid="rollback-confirm"
          >
            {submitting ? 'Requesting…' : 'Roll back'}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
};
