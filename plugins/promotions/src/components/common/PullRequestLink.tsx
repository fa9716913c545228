import { Typography } from '@material-ui/core';
import { Link } from '@backstage/core-components';

/**
 * `#42`, linking to the Release PR on GitHub; "opening…" while the promotion
 * is recorded but its PR does not exist yet (number 0).
 */
export const PullRequestLink = (props: {
  pullRequest: { number: number; url: string };
  testId?: string;
}) => {
  if (props.pullRequest.number <= 0 || !props.pullRequest.url) {
    return (
      <Typography component="span" variant="body2" color="textSecondary" data-testid="pr-opening">
        opening…
      </Typography>
    );
  }
  return (
    <Link to={props.pullRequest.url} data-testid={props.testId}>
      #{props.pullRequest.number}
    </Link>
  );
};
