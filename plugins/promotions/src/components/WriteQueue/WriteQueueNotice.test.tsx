import { screen } from '@testing-library/react';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { WriteQueueState } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../../api';
import { WriteQueueNotice } from './WriteQueueNotice';

const NOW = new Date('2026-12-04T10:00:00Z');

async function renderNotice(getWriteQueue: () => Promise<WriteQueueState>) {
  await renderInTestApp(
    <TestApiProvider apis={[[promotionsApiRef, { getWriteQueue }]]}>
      <span data-testid="page">
        <WriteQueueNotice now={NOW} />
      </span>
    </TestApiProvider>,
  );
}

describe('WriteQueueNotice', () => {
  it("says how many auto-promotions wait for GitHub's write limit, and for how long the oldest", async () => {
    await renderNotice(async () => ({ waiting: 12, oldestQueuedAt: '2026-12-04T09:57:00Z' }));
    expect(await screen.findByTestId('write-queue-notice')).toHaveTextContent(
      "12 auto-promotions wait for GitHub's write limit; the oldest for 3m. Their pull requests open one at a time; a person's request goes first.",
    );
  });

  it("says when the next one opens while GitHub's hourly write limit holds them", async () => {
    const opensAt = '2026-12-04T10:42:00Z';
    await renderNotice(async () => ({
      waiting: 3,
      oldestQueuedAt: '2026-12-04T09:57:00Z',
      waitingFor: 'github-hourly-write-limit',
      opensAt,
    }));
    const at = new Date(opensAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    expect(await screen.findByTestId('write-queue-opens')).toHaveTextContent(
      `GitHub's hourly write limit: the next opens about ${at}.`,
    );
  });

  it('shows nothing while the queue is empty, or cannot be read', async () => {
    const empty = jest.fn(async () => ({ waiting: 0 }));
    await renderNotice(empty);
    await screen.findByTestId('page');
    expect(empty).toHaveBeenCalled();
    expect(screen.queryByTestId('write-queue-notice')).not.toBeInTheDocument();
  });
});
