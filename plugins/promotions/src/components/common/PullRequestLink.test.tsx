import { fireEvent, screen } from '@testing-library/react';
import { renderInTestApp } from '@backstage/test-utils';
import { PullRequestLink } from './PullRequestLink';

describe('PullRequestLink', () => {
  it('links an opened PR by its number', async () => {
    await renderInTestApp(<PullRequestLink pullRequest={{ number: 42, url: 'https://github.com/p/g/pull/42' }} />);
    expect(screen.getByRole('link', { name: /^#42/ })).toHaveAttribute('href', 'https://github.com/p/g/pull/42');
  });

  it('says a promotion is being opened while it has no PR yet', async () => {
    await renderInTestApp(<PullRequestLink pullRequest={{ number: 0, url: '' }} />);
    expect(screen.getByTestId('pr-opening')).toHaveTextContent('opening…');
  });

  it('says a promotion waits in the write queue, and why, while it is queued', async () => {
    const queuedAt = new Date(Date.now() - 3 * 60_000).toISOString();
    await renderInTestApp(<PullRequestLink pullRequest={{ number: 0, url: '' }} queuedAt={queuedAt} />);
    fireEvent.mouseOver(screen.getByTestId('pr-queued'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      "Waiting in the write queue since 3 min. ago: the auto-promoter's pull requests open one at a time, within GitHub's write limit",
    );
  });

  it("says when the next PR opens while GitHub's hourly write limit holds the queue", async () => {
    const queuedAt = new Date(Date.now() - 3 * 60_000).toISOString();
    const opensAt = new Date(Date.now() + 40 * 60_000).toISOString();
    await renderInTestApp(
      <PullRequestLink
        pullRequest={{ number: 0, url: '' }}
        queuedAt={queuedAt}
        queueOpening={{ waitingFor: 'github-hourly-write-limit', opensAt }}
      />,
    );
    fireEvent.mouseOver(screen.getByTestId('pr-queued'));
    const at = new Date(opensAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      `within GitHub's write limit. GitHub's hourly write limit: the next opens about ${at}`,
    );
  });
});
