import { Typography, makeStyles } from '@material-ui/core';
import { Link } from '@backstage/core-components';
import { ServiceChange } from '../../api';
import { DigestChange } from '../common/DigestChange';
import { ChangeCommitLine } from './ChangeCommitLine';

const useStyles = makeStyles(theme => ({
  root: { marginTop: theme.spacing(1) },
  commits: { margin: 0, paddingLeft: theme.spacing(2.5) },
  note: { color: theme.palette.text.secondary, fontStyle: 'italic' },
}));

/** The link to GitHub's comparison says how many older commits the list leaves out. */
function compareLinkText(omitted = 0): string {
  if (omitted === 0) return 'Compare on GitHub';
  return `and ${omitted} more commit${omitted === 1 ? '' : 's'} on GitHub`;
}

/**
 * One service a promotion would change: its digests, and the newest commits
 * (with how many older ones are left out) or why they are not shown.
 */
export const ServiceChangeItem = (props: { change: ServiceChange }) => {
  const classes = useStyles();
  const { change } = props;
  const commits = change.commits ?? [];
  return (
    <div className={classes.root} data-testid={`what-changed-${change.service}`}>
      <Typography component="div" variant="subtitle2">
        {change.service}
        {change.from && (
          <>
            {': '}
            <DigestChange from={change.to} to={change.from} />
          </>
        )}
      </Typography>
      {commits.length > 0 && (
        <ul className={classes.commits}>
          {commits.map(commit => (
            <li key={commit.sha}>
              <ChangeCommitLine commit={commit} />
            </li>
          ))}
        </ul>
      )}
      {change.compareUrl && (
        <Typography variant="body2" data-testid={`what-changed-compare-${change.service}`}>
          <Link to={change.compareUrl}>{compareLinkText(change.omittedCommits)}</Link>
        </Typography>
      )}
      {change.note && (
        <Typography
          variant="body2"
          className={classes.note}
          data-testid={`what-changed-note-${change.service}`}
        >
          {change.note}
        </Typography>
      )}
      {!change.note && commits.length === 0 && (
        <Typography variant="body2" className={classes.note}>
          No source commits recorded between the two digests.
        </Typography>
      )}
    </div>
  );
};
