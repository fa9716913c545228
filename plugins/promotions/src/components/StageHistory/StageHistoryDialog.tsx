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
} from '@material-ui/core';
import { ErrorPanel, Progress } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import useAsync from 'react-use/esm/useAsync';
import { LadderStage, ProductRef } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../../api';
import { DigestLabel } from '../common/DigestLabel';
import { PullRequestLink } from '../common/PullRequestLink';
import { RollbackButton } from './RollbackButton';

/** What was released into one stage, newest first; with `current`, a rollback per differing entry. */
export const StageHistoryDialog = (props: {
  product: ProductRef;
  stage: string;
  /** The stage as the ladder shows it now, to tell which entries differ. */
  current?: LadderStage;
  onRolledBack?: () => void;
  onClose: () => void;
}) => {
  const { current, onRolledBack } = props;
  const api = useApi(promotionsApiRef);
  const { team, product } = props.product;
  const { value: entries, loading, error } = useAsync(
    () => api.getStageHistory({ team, product }, props.stage),
    [api, team, product, props.stage],
  );

  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="md" data-testid="history-dialog">
      <DialogTitle>History of {props.stage}</DialogTitle>
      <DialogContent>
        {loading && <Progress />}
        {error && <ErrorPanel error={error} title={`Cannot read the history of ${props.stage}`} />}
        {entries && entries.length === 0 && (
          <Typography>Nothing has been released into {props.stage} yet.</Typography>
        )}
        {entries && entries.length > 0 && (
          <Table size="small" aria-label={`History of ${props.stage}`}>
            <TableHead>
              <TableRow>
                <TableCell>Date</TableCell>
                <TableCell>Author</TableCell>
                <TableCell>Change</TableCell>
                <TableCell>Services</TableCell>
                <TableCell>Pull request</TableCell>
                {current && <TableCell />}
              </TableRow>
            </TableHead>
            <TableBody>
              {entries.map(entry => (
                <TableRow key={entry.revision} data-testid={`history-entry-${entry.revision}`}>
                  <TableCell>
                    <time dateTime={entry.date} title={entry.date}>
                      {new Date(entry.date).toLocaleString()}
                    </time>
                  </TableCell>
                  <TableCell>{entry.author}</TableCell>
                  <TableCell>
                    <Typography variant="body2" title={entry.revision}>
                      {entry.message}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    {Object.entries(entry.services).map(([service, digest]) => (
                      <Typography key={service} component="div" variant="body2">
                        {service}: <DigestLabel digest={digest} />
                      </Typography>
                    ))}
                  </TableCell>
                  <TableCell>
                    {entry.pullRequest ? <PullRequestLink pullRequest={entry.pullRequest} /> : '—'}
                  </TableCell>
                  {current && (
                    <TableCell>
                      <RollbackButton
                        product={props.product}
                        stage={current}
                        entry={entry}
                        onRolledBack={onRolledBack ?? (() => {})}
                      />
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
};
