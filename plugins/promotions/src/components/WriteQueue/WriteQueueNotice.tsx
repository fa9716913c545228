import { useApi } from '@backstage/core-plugin-api';
import { makeStyles } from '@material-ui/core';
import { Alert } from '@material-ui/lab';
import { formatSeconds } from '@refplat/plugin-promotions-common';
import useAsync from 'react-use/esm/useAsync';
import { promotionsApiRef } from '../../api';
import { queueOpeningWords } from './queueOpeningWords';

const useStyles = makeStyles(theme => ({ notice: { marginBottom: theme.spacing(2) } }));

/**
 * "12 auto-promotions wait for GitHub's write limit; the oldest for 3m": the
 * auto-promoter's promotions whose PRs the write queue has not opened yet.
 * Nothing while the queue is empty or cannot be read (the page works without it).
 */
export const WriteQueueNotice = (props: { now?: Date }) => {
  const classes = useStyles();
  const api = useApi(promotionsApiRef);
  const queue = useAsync(() => api.getWriteQueue(), [api]);
  const state = queue.value;
  if (!state?.waiting) return null;
  const opens = queueOpeningWords(state);
  const oldest = state.oldestQueuedAt
    ? `; the oldest for ${formatSeconds(((props.now ?? new Date()).getTime() - Date.parse(state.oldestQueuedAt)) / 1000)}`
    : '';
  return (
    <Alert severity="info" className={classes.notice} data-testid="write-queue-notice">
      {state.waiting === 1 ? '1 auto-promotion waits' : `${state.waiting} auto-promotions wait`} for GitHub's write
      limit{oldest}. Their pull requests open one at a time; a person's request goes first.
      {opens && <span data-testid="write-queue-opens"> {opens}.</span>}
    </Alert>
  );
};
