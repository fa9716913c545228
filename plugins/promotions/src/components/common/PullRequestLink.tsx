import { Tooltip, Typography } from '@material-ui/core';
import { Link } from '@backstage/core-components';
import { DateTime } from 'luxon';
import { QueueOpening } from '@refplat/plugin-promotions-common';
import { queueOpeningWords } from '../WriteQueue/queueOpeningWords';

/** Whether a promotion waits in the write queue: recorded, its PR not opened yet. */
export function isQueued(promotion: { pullRequest: { number: number }; queuedAt?: string }): boolean {
  return promotion.pullRequest.number <= 0 && !!promotion.queuedAt;
}

/**
 * `#42`, linking to the Release PR on GitHub; "queued" while the promotion
 * waits in the write queue (the auto-promoter's PRs open one at a time,
 * within GitHub's write limit); "opening…" while it is recorded but its PR
 * does not exist yet (number 0).
 */
export const PullRequestLink = (props: {
  pullRequest: { number: number; url: string };
  /** When the promotion joined the write queue, while it waits there. */
  queuedAt?: string;
  /** While it waits there: why its PR is not open yet, and when the next write may go. */
  queueOpening?: QueueOpening;
  testId?: string;
}) => {
  if (props.queuedAt && isQueued(props)) {
    const since = DateTime.fromISO(props.queuedAt).toRelative({ style: 'short' });
    const opens = queueOpeningWords(props.queueOpening);
    return (
      <Tooltip
        title={`Waiting in the write queue since ${since}: the auto-promoter's pull requests open one at a time, within GitHub's write limit${
          opens ? `. ${opens}` : ''
        }`}
      >
        <Typography component="span" variant="body2" color="textSecondary" data-testid="pr-queued">
          queued
        </Typography>
      </Tooltip>
    );
  }
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
