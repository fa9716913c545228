import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  makeStyles,
} from '@material-ui/core';
import { Progress } from '@backstage/core-components';
import { CannotReadPanel } from '../common/CannotReadPanel';
import { useApi } from '@backstage/core-plugin-api';
import useAsync from 'react-use/esm/useAsync';
import { LadderStage, ProductRef } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../../api';
import { InfoDialog } from '../common/InfoDialog';
import { PullRequestLink } from '../common/PullRequestLink';
import { useCompactTableStyles } from '../common/styles';
import { When } from '../common/When';
import { HistoryDigests } from './HistoryDigests';
import { RollbackButton } from './RollbackButton';
import { shortCommit } from './rollbackWords';

const useStyles = makeStyles(theme => ({
  commit: { fontFamily: 'monospace' },
  // Both ways back, one above the other: the row stays narrow enough for its message.
  actions: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'stretch',
    gap: theme.spacing(0.5),
  },
}));

/**
 * What was released into one stage, newest first, each row one commit of its
 * Release record and what it changed; with `current`, each row offers to
 * revert its change and to restore the state after it.
 */
export const StageHistoryDialog = (props: {
  product: ProductRef;
  stage: string;
  /** The stage as the ladder shows it now, to tell which entries differ. */
  current?: LadderStage;
  /** The ladder's first stage, which CI writes and nothing promotes into: a rollback there places no hold. */
  bottomRung?: boolean;
  onRolledBack?: () => void;
  onClose: () => void;
}) => {
  const classes = useCompactTableStyles();
  const rowClasses = useStyles();
  const { current, onRolledBack } = props;
  const api = useApi(promotionsApiRef);
  const { team, product } = props.product;
  const {
    value: entries,
    loading,
    error,
  } = useAsync(
    () => api.getStageHistory({ team, product }, props.stage),
    [api, team, product, props.stage],
  );
  return (
    <InfoDialog
      testId="history-dialog"
      maxWidth="md"
      title={`History of ${props.stage}`}
      onClose={props.onClose}
    >
      {loading && <Progress />}
      {error && (
        <CannotReadPanel what={`the history of ${props.stage}`} error={error} />
      )}
      {entries && entries.length === 0 && (
        <Typography>
          Nothing has been released into {props.stage} yet.
        </Typography>
      )}
      {entries && entries.length > 0 && (
        <Table
          size="small"
          aria-label={`History of ${props.stage}`}
          className={classes.table}
        >
          <TableHead>
            <TableRow>
              <TableCell>When</TableCell>
              <TableCell>Commit</TableCell>
              <TableCell>Change</TableCell>
              <TableCell>Digests</TableCell>
              <TableCell>PR</TableCell>
              {current && <TableCell />}
            </TableRow>
          </TableHead>
          <TableBody>
            {entries.map(entry => (
              <TableRow
                key={entry.revision}
                data-testid={`history-entry-${entry.revision}`}
              >
                <TableCell className={classes.nowrap}>
                  <Typography variant="body2">
                    <When date={entry.date} />
                  </Typography>
                  <Typography variant="caption" color="textSecondary">
                    {entry.author}
                  </Typography>
                </TableCell>
                <TableCell>
                  <Typography
                    variant="body2"
                    className={rowClasses.commit}
                    title={entry.revision}
                    data-testid={`history-commit-${entry.revision}`}
                  >
                    {shortCommit(entry.revision)}
                  </Typography>
                </TableCell>
                <TableCell>
                  <Typography variant="body2">{entry.message}</Typography>
                </TableCell>
                <TableCell className={classes.nowrap}>
                  <HistoryDigests entry={entry} />
                </TableCell>
                <TableCell className={classes.nowrap}>
                  {entry.pullRequest ? (
                    <PullRequestLink pullRequest={entry.pullRequest} />
                  ) : (
                    '—'
                  )}
                </TableCell>
                {current && (
                  <TableCell className={classes.nowrap}>
                    <div className={rowClasses.actions}>
                      {(['revert', 'restore'] as const).map(kind => (
                        <RollbackButton
                          key={kind}
                          kind={kind}
                          product={props.product}
                          stage={current}
                          bottomRung={props.bottomRung}
                          entry={entry}
                          onRolledBack={onRolledBack ?? (() => {})}
                        />
                      ))}
                    </div>
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </InfoDialog>
  );
};
