import { Typography, makeStyles } from '@material-ui/core';
import { Link } from '@backstage/core-components';
import { ChangeCommit } from '../../api';

const useStyles = makeStyles({
  sha: { fontFamily: 'monospace' },
});

/** `abc1234 message — author`, the sha linking to the commit. */
export const ChangeCommitLine = (props: { commit: ChangeCommit }) => {
  const classes = useStyles();
  const { commit } = props;
  const subject = commit.message.split('\n')[0];
  return (
    <Typography variant="body2" data-testid={`commit-${commit.sha.slice(0, 7)}`}>
      <Link to={commit.url} className={classes.sha}>
        {commit.sha.slice(0, 7)}
      </Link>{' '}
      {subject} — {commit.author}
    </Typography>
  );
};
