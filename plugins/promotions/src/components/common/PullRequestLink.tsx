import { Link } from '@backstage/core-components';

/** `#42`, linking to the Release PR on GitHub. */
export const PullRequestLink = (props: {
  pullRequest: { number: number; url: string };
  testId?: string;
}) => (
  <Link to={props.pullRequest.url} data-testid={props.testId}>
    #{props.pullRequest.number}
  </Link>
);
